"""Functions for tests/safety/test_stale.py: module globals the tests rebind between
calls, functools.wraps wrappers, a callee the compiler refuses. At module level in a
.py file because the compiler reads their source."""
import functools

import numpy as np

lam = 2.0
W = np.array([1.0, 2.0, 3.0])


def scaled_square(x):
    return lam * x * x


def weighted(x):
    return np.sum(W * np.sin(x))


def helper(v):
    return v * v


def sine(v):
    return np.sin(v)


def calls_helper(x):
    return helper(x) + 1.0


def through_module(x):
    return mod.h(x) * 2.0


mod = None                           # the tests bind a module here


def make_closure(k):
    def scaled(x):
        return k * x * x

    def set_k(value):
        nonlocal k
        k = value
    return scaled, set_k


def doubled(fn):
    @functools.wraps(fn)
    def wrapper(x):
        return 2.0 * fn(x)
    return wrapper


@doubled
def wrapped_square(x):
    return x * x


@doubled
def wrapped_sin(x):
    return np.sin(x)


def calls_wrapped(x):
    return wrapped_sin(x) + x


def star_wrapper(fn):
    @functools.wraps(fn)
    def wrapper(*args):
        return 2.0 * fn(*args)
    return wrapper


@star_wrapper
def star_wrapped(x):
    return x * x


def cube(x):
    return x ** 3


def calls_cube(x):
    return cube(x) * 2.0


class Lin:
    def __init__(self, w):
        self.w = w

    def __call__(self, x):
        return self.w * x


lin = Lin(3.0)


def call_param(x, layer):
    return layer(x) * x


def call_global(x):
    return lin(x) * x


def refused_helper(x):
    global lam
    lam = 2.0                       # (writing a global: refused; reading one runs)
    return x * lam


def calls_refused(x):
    y = x * 2.0
    return refused_helper(y)


class Refused:
    def apply(self, x):
        global lam
        lam = 1.0                   # (writing a global: refused)
        return x


def calls_refused_method(x, obj):
    return obj.apply(x) * 2.0


def recursive_power(x, n):
    if n == 0:
        return 1.0
    return x * recursive_power(x, n - 1)


class Private:
    __scale = 3.0

    def apply(self, x):
        return self.__scale * x * x

    def nested(self, x):
        def inner(v):
            return self.__scale * v
        return inner(x) * x
