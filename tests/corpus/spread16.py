"""Issue 16, calls: `f(*xs)` where the source does not fix the length of xs (a
parameter, a list grown in a loop, a comprehension, the rows of an array, a second
name): the call is dispatched when the code runs, with xs's entries spread into f's
compiled rule, and their cotangents come back as xs's (runtime/spread.py). Scalar and
array inputs against finite differences under every policy; what stays refused: a
value being differentiated passed by keyword next to the star, `**params` of a dict the
source does not fix, a star of an iterable that is not a list, tuple or array."""
import numpy as np

from .case import case, floats, refused
from .data_values import both


def pair(a, b):
    return a * b + a


def triple(a, b, c=1.0):
    return a * b - c


def weighted(w, *terms):
    total = 0.0
    for k, t in enumerate(terms):
        total = total + w * (k + 1.0) * t
    return total


def spread_rows(rows):
    return pair(*rows)


class Layer:
    def __init__(self, w):
        self.w = w

    def forward(self, a, b):
        return np.tanh(self.w * a + b)


@both
def star_of_a_comprehension(x):
    xs = [np.sin(x) * k for k in range(1, 3)]
    return np.sum(pair(*xs))


@both
def star_between_positionals(x):
    xs = [np.cos(x)]
    return np.sum(triple(x, *xs, np.exp(-x)))


@case(floats((3,)))        # session 30: a helper's *args compiled for the values given
def star_into_varargs_helper(x):
    terms = []
    for k in range(3):
        terms.append(x ** (k + 1))
    return np.sum(weighted(np.sin(x), *terms))


@both
def star_of_a_parameter_list(x):
    return np.sum(spread_rows([x * 2.0, np.cos(x)])) + np.sum(spread_rows((x, x)))


@both
def star_to_a_function_value(x):
    f = pair if np.sum(x) > -100.0 else triple
    xs = [x, x * x]
    return np.sum(f(*xs))


@both
def star_to_a_method(x):
    layer = Layer(np.exp(x))
    inputs = [x, x + 1.0]
    return np.sum(layer.forward(*inputs))


@case(floats((2, 3)))
def star_of_array_rows(A):
    return np.sum(pair(*A)) + np.sum(pair(*(A * A)))


@both
def star_in_a_loop(x):
    parts = [x, x * 0.5]
    t = 0.0
    for _ in range(3):
        t = t + np.sum(pair(*parts))
        parts = [parts[1], parts[0] * parts[1]]
    return t


@refused(floats((3,)), "a value being differentiated by keyword next to the star")
def star_with_differentiated_keyword(x):
    xs = [np.sin(x) * k for k in range(1, 2)]
    return np.sum(triple(x, *xs, c=np.cos(x)))


@case(floats((3,)))   # refused until session 30 (py30b): spread when the code runs now
def double_star_grown(x):
    kw = {}
    for name in ("a", "b"):
        kw[name] = x * 2.0
    return np.sum(pair(**kw))


@refused(floats((3,)), "a star of a map object: not a list, tuple or array")
def star_of_a_map_object(x):
    xs = map(np.sin, [x, x * 2.0])
    return np.sum(pair(*xs))
