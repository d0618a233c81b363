"""Programs calling helpers inside loop bodies (module level: the compiler reads their
source): an RK4 step through `rhs`, an LSTM-style `cell` returning a tuple, keyword
and default arguments, a helper calling a helper, recursion, a printing helper."""
import numpy as np


def rhs(y, p):
    return -p * y + np.sin(y)


def rk4(y0, p):
    y = y0
    dt = 0.05
    for _ in range(6):
        k1 = rhs(y, p)
        k2 = rhs(y + 0.5 * dt * k1, p)
        k3 = rhs(y + 0.5 * dt * k2, p)
        k4 = rhs(y + dt * k3, p)
        y = y + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
    return np.sum(y ** 2)


def cell(x, h, c, W):
    z = W @ np.concatenate([x, h])
    n = h.shape[0]
    gate = 1 / (1 + np.exp(-z[:2 * n]))
    c = gate[:n] * c + gate[n:] * np.tanh(z[2 * n:])
    return np.tanh(c) * h, c


def lstm(W, xs, h0, c0):
    h, c = h0, c0
    total = 0.0
    for x in xs:
        h, c = cell(x, h, c, W)
        total = total + np.sum(h * h)
    return total + np.sum(c)


def damped(y, k, rate=0.5):
    return y - rate * k * y


def with_keywords(y, k):
    for _ in range(4):
        y = damped(y, k=k, rate=0.3)
    return np.sum(y * y)


def with_defaults(y, k):
    for _ in range(4):
        y = damped(y, k)
    return np.sum(y * y)


def inner(v, w):
    return np.tanh(v * w)


def outer(v, w):
    return inner(v, w) + inner(w, v) * v


def nested(v, w):
    s = 0.0
    for _ in range(3):
        v = outer(v, w)
        s = s + np.sum(v)
    return s


def power(x, n):
    if n == 0:
        return np.ones_like(x)
    return x * power(x, n - 1)


def recursive(x, a):
    s = 0.0
    for n in range(1, 4):
        s = s + np.sum(a * power(x, n))
    return s


def noisy(x, a):
    print("noisy", x.shape)
    return a * x * x


def printing(x, a):
    s = 0.0
    for _ in range(3):
        x = noisy(x, a)
        s = s + np.sum(x)
    return s


def scale(v, c):
    return v * c, np.sum(v) * c


def unused_second(v, c):
    total = 0.0
    for _ in range(3):
        v, extra = scale(v, c)
        total = total + np.sum(v)
    return total


def in_while(x, a):
    n = 0
    while n < 3:
        x = inner(x, a)
        n = n + 1
    return np.sum(x)


def in_branch(x, a):
    s = 0.0
    for k in range(4):
        if k % 2:
            s = s + np.sum(inner(x, a))
        else:
            s = s + np.sum(outer(a, x))
    return s
