"""Calls into user functions (module-level helpers), keyword arguments, defaults."""
import numpy as np

from .case import case, floats


def square(x):
    return x * x


def affine(x, a, b=1.0):
    return a * x + b


def layer(W, x):
    return np.tanh(W @ x)


def two_outputs(x, y):
    return x * y, x + y


def uses_helper(x):
    return square(x) + x


def helper_with_loop(x, n):
    s = x
    for _ in range(n):
        s = np.sin(s) + x
    return s


def helper_with_branch(x):
    if x > 0:
        return x * x
    return -x


@case(floats(()))
def call_helper(x):
    return square(x) * x


@case(floats((), ()))
def call_helper_twice(x, y):
    return square(x) + square(x * y)


@case(floats((), ()))
def call_with_default(x, a):
    return affine(x, a) * x


@case(floats((), ()))
def call_with_keyword(x, a):
    return affine(x, a=a, b=2.0) ** 2


@case(floats((3, 3), (3,)))
def call_array_helper(W, x):
    h = layer(W, x)
    return np.sum(layer(W, h) ** 2)


@case(floats((), ()))
def call_tuple_result(x, y):
    p, s = two_outputs(x, y)
    return p * s


@case(floats(()))
def call_nested_helper(x):
    return uses_helper(x) * square(x)


@case(floats((3,)))
def call_in_loop(a):
    s = 0.0
    for v in a:
        s = s + square(v)
    return s


@case(floats(()))
def call_helper_with_loop(x):
    return helper_with_loop(x, 3) * x


@case(floats(()))
def call_helper_with_branch(x):
    return helper_with_branch(x) + helper_with_branch(-2.0 * x)


@case(floats((3,)))
def call_in_comprehension(a):
    return sum(square(v) for v in a)


@case(floats(()))
def call_builtin_float(x):
    return float(x) * x


@case(floats((3,)))
def call_numpy_keyword(a):
    return np.sum(a * a, axis=0) + np.mean(a, axis=0)


def inner_closure_maker(c):
    def scale(v):
        return c * v
    return scale


SCALE = inner_closure_maker(3.0)


@case(floats(()))
def call_closure(x):
    return SCALE(x) * x


@case(floats(()))
def nested_def(x):
    def f(v):
        return v * x
    return f(x) + f(2.0)


@case(floats(()))
def call_closure_twice(x):
    return SCALE(x) + square(SCALE(x))
