"""Functions for the loop-pass tests (module level: the compiler reads their source)."""
import numpy as np

from transform import Thunk, rrule, unthunk

CALLS = {"x": 0, "y": 0}


def seed(W, xs):
    return sum((W @ xi)[0] for xi in xs)


def heavy(x, y):
    return x * y


@rrule(heavy)
def _heavy_rule(x, y):
    def pullback(g):
        def dx():
            CALLS["x"] += 1
            return unthunk(g) * y

        def dy():
            CALLS["y"] += 1
            return unthunk(g) * x
        return Thunk(dx), Thunk(dy)
    return heavy(x, y), pullback


def straight(x, y):
    return heavy(x, y) + 2 * heavy(x, y)


def helper(x, y):
    return heavy(x, y) * 3.0


def across_call(x, y):
    return helper(x, y) + x


def in_loop(x, y, n):
    s = 0.0
    for i in range(n):
        s = s + heavy(x, y)
    return s


def layer(W, b, x):
    return np.tanh(W @ x + b)


def bias_only(W, b, x):
    return np.sum(layer(W, b, x))


def bias_loop(W, b, x, n):
    s = 0.0
    for i in range(n):
        s = s + np.sum(np.tanh(W @ x + b))
    return s


def weighted_bias(b, c, n):
    s = 0.0
    for i in range(n):
        s = s + np.sum(b * c)
    return s


def held(b, c):
    return b * c


@rrule(held)
def _held_rule(b, c):
    def pullback(g):
        d = unthunk(g) * c          # computed now, handed over as a Thunk holding it
        return Thunk(lambda: d), None
    return b * c, pullback


def held_loop(b, c, n):
    s = 0.0
    for i in range(n):
        s = s + np.sum(held(b, c))
    return s
