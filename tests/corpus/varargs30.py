"""Issue 16, session 30 (py30a): a helper's `*args` given values being differentiated.

The call fixes how many values `*args` receives; the helper is compiled for that count
(transform/frontend/varargs.py), so each value gets its cotangent: `total(a * w, b)`,
`loss(w, x, y)` unpacking `x, y = args`, `f(*pair)` of a tuple, a list grown in a loop
spread into `*args` (dispatched when the code runs), methods and keyword-only parameters
after `*args`. Scalar and array inputs against finite differences under every policy."""
import numpy as np

from .case import refused, floats
from .data_values import both


def total(*xs):
    return sum(xs)


def loss(w, *args):
    x, y = args
    return np.sum((w * x - y) ** 2)


def product(*xs):
    return xs[0] * xs[1]


def scaled(w, *xs, scale=2.0):
    out = 0.0
    for x in xs:
        out = out + scale * w * x
    return out


class Mixer:
    def __init__(self, s):
        self.s = s

    def add(self, *xs):
        return self.s * sum(xs)


@both
def sum_of_varargs(w):
    a, b = np.sin(w), np.cos(w)
    return np.sum(total(a * w, b))


@both
def unpacked_args(w):
    x, y = np.cos(w), 2.0 * w
    return loss(w, x, y)


@both
def star_of_a_tuple(w):
    pair = (np.sin(w), w * 3.0)
    return np.sum(product(*pair))


@both
def star_of_a_grown_list(w):
    xs = []
    for k in range(2):
        xs.append(w * (k + 1.0))
    return np.sum(product(*xs))


@both
def varargs_in_a_loop(w):
    acc = 0.0
    for k in range(3):
        acc = acc + total(w * k, np.sin(w))
    return np.sum(acc)


@both
def keyword_after_varargs(w):
    return np.sum(scaled(w, np.cos(w), w * w, scale=3.0))


@both
def method_varargs(w):
    m = Mixer(2.0)
    return np.sum(m.add(w, np.sin(w)))


@refused(floats(()), "a nested def taking *args: define it at module level")
def nested_varargs(w):
    def inner(*vs):
        return vs[0] * 2.0
    return inner(w)
