"""Scalar functions for the higher-derivative tests: straight-line code, loops, branches,
a while loop, containers, and functions of two arguments (mixed blocks)."""
import numpy as np


def poly_trig(x):
    return np.sin(x) * x ** 3 + np.exp(0.3 * x)


def looped(x):
    s = 0.0
    for k in range(1, 4):
        s = s + np.tanh(k * x) / k
    return s * x


def branched(x):
    if x > 0.5:
        y = x * np.log(1.0 + x * x)
    else:
        y = np.cos(x) - x ** 4
    return y


def while_loop(x):
    y = x
    n = 0
    while n < 3:
        y = np.sin(y) + 0.5 * y * x
        n = n + 1
    return y


def container(x):
    parts = (x * x, np.exp(-x))
    acc = [parts[0] * parts[1]]
    acc.append(np.sqrt(1.0 + parts[0]))
    return acc[0] + acc[1]


def array_sum(x):
    v = np.array([0.4, -1.1, 2.0])
    return np.sum(np.tanh(x * v) ** 2) / (1.0 + x * x)


SCALAR = [poly_trig, looped, branched, while_loop, container, array_sum]
# where each is evaluated: away from a branch's switch point
POINTS = {poly_trig: 1.3, looped: 0.7, branched: 0.9, while_loop: 0.6, container: 0.8,
          array_sum: -0.4}


def vector(w):
    h = np.tanh(w * np.array([1.0, -0.5, 2.0])) + w[0] * w[2]
    return np.sum(h ** 2) + np.sum(np.exp(0.2 * w))


def vector_loop(w):
    s = 0.0
    for k in range(3):
        if w[k] > 0:
            s = s + w[k] ** 3 * np.sum(w)
        else:
            s = s - np.sin(w[k]) * w[k]
    return s


def two_args(x, y):
    return np.sum(np.sin(x * y) * x) + np.sum(x ** 2) * np.sum(y ** 3)
