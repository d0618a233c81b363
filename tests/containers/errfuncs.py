"""Functions the compiler must reject (or that hit a known bug); the tests find
each offending line by a marker string and check the error names it."""
import cmath
import operator

import numpy as np

from . import funcs as F

vectorized_double = np.frompyfunc(lambda v: v * 2.0, 1, 1)


# ---- calls with no source and no rule -------------------------------------------------
def calls_cmath_asinh(x):
    y = x * 2.0
    return cmath.asinh(y) * x


def calls_frompyfunc(x):
    return np.sum(vectorized_double(x) * x)


def calls_length_hint(x):
    n = operator.length_hint([x, x])
    return x * n


def helper_calls_asinh(x):
    y = x + 1.0
    return cmath.asinh(y)


def calls_helper_calling_asinh(x):
    return helper_calls_asinh(x) * x


# ---- writes into arguments ------------------------------------------------------------
def writes_argument(x):
    x[0] = 1.0
    return np.sum(x)


def aug_writes_argument(x):
    y = x * 2.0
    x[1] += 1.0
    return np.sum(x * y)


def slice_writes_argument(x, v):
    x[1:] = v
    return np.sum(x)


def helper_writes_argument(v):
    v[0] = 0.0
    return v


def calls_helper_writing_argument(x):
    y = x * 2.0
    return np.sum(helper_writes_argument(y))


# ---- attribute assignment -------------------------------------------------------------
class Box:
    def __init__(self):
        self.a = 0.0

    def set_and_return(self, x):
        self.a = x
        return x * 2.0


def assigns_attribute(box, x):
    box.a = 1.0
    return x * x


def assigns_attribute_of_local(x):
    box = Box()
    box.a = x
    return x


def method_assigns_attribute(box, x):
    return box.set_and_return(x) * x


# ---- other unsupported constructs -----------------------------------------------------
def star_call(x, y):
    args = [x]
    args.append(y)          # (spread when the code runs since session 29: test_errors.py)
    return F.mul_add(*args)


def starred_target(x, y):
    a, *rest = (x, y, x * y)
    return a * rest[0]


def starred_for_target(x, y):
    total = 0.0
    for a, *rest in [(x, y, x), (y, x, y)]:
        total = total + a
    return total


def dict_variable_key_literal(x):
    key = "a"
    d = {key: x}
    return d["a"]


def nested_recursion(x):
    def f(v, n):
        if n == 0:
            return v
        return f(v * v, n - 1)

    return f(x, 2)


def calls_a_callable_object(model, x):
    return np.sum(model(x))
