"""Lambdas and functions as arguments: inline lambdas, module-level lambdas, map and
filter with a lambda or a function, key functions, nested defs with defaults."""
import functools

import numpy as np

from .case import case, floats, refused

square = lambda v: v * v        # noqa: E731  (a module-level lambda helper)


@case(floats((3,), ()))
def inline_lambda_with_closure(x, w):
    scale = lambda t: t * w + x[0]       # noqa: E731
    return np.sum(scale(x) ** 2)


@case(floats((3,)))
def module_level_lambda(x):
    return np.sum(square(np.sin(x)))


@case(floats((4,)))
def map_with_a_lambda(x):
    return sum(map(lambda t: t * t * x[1], x))


@case(floats((4,)))
def map_with_functions(x):
    return sum(map(square, x)) + sum(list(map(np.tanh, x)))


@case(floats((3,)))
def map_over_two_sequences(x):
    products = list(map(lambda a, b: a * b, x, x[::-1]))
    return products[0] + 2.0 * products[1]


@case(floats((5,)))
def filter_with_a_lambda(x):
    return sum(filter(lambda t: t > 0.0, x)) + sum(filter(None, [x[0], 0.0, x[1]]))


@case(floats((4,)))
def key_functions(x):
    ys = [x[0] * 2.0, x[1], np.sin(x[2]), x[3]]
    return sorted(ys, key=lambda v: -v)[0] + max(ys, key=abs) * min(x, key=lambda v: v * v)


@case(floats((3,)))
def key_reads_a_value_being_differentiated(x):
    ys = [x[0], x[1] * 2.0, x[2]]
    return sorted(ys, key=lambda v: v * x[0])[0]


@case(floats((3,)))
def nested_def_default_taken_at_definition(x):
    w = x[0]

    def scaled(t, w=w):
        return t * w
    w = 2.0 * x[1]
    return scaled(x[2]) + w


@case(floats((3,)))      # refused before this round; reads only t: a constant function
def lambda_kept_in_a_list(x):
    fs = [lambda t: t * 2.0]
    return fs[0](x[0])


def activation_sum(x, f=np.tanh):
    return np.sum(f(x))


def double(v):
    return 2.0 * v


@case(floats((3,)))
def function_as_a_default_argument(x):
    return activation_sum(x) + activation_sum(x, np.sin) + activation_sum(x, f=double)


@case(floats((3,)))
def functions_in_a_list_and_a_dict(x):
    fs = [np.sin, np.cos, double]
    ops = {"square": square, "exp": np.exp}
    return sum(np.sum(g(x)) for g in fs) + np.sum(ops["square"](x) * ops["exp"](x))


@case(floats((3,)))
def functools_partial_of_constants(x):
    triple = functools.partial(np.multiply, 3.0)
    shifted = functools.partial(activation_sum, f=np.tanh)
    return np.sum(triple(x)) * shifted(x)


@case(floats((3,)))     # (was refused; make_partial carries its values' cotangents)
def functools_partial_of_a_differentiated_value(x):
    scale = functools.partial(np.multiply, x)
    return np.sum(scale(x))


def scaled_items(x, n):
    for k in range(n):
        yield x[k] * (k + 1)


def products_then_rest(x):
    yield x[0] * x[1]
    yield from [x[1], x[2] ** 2]


@case(floats((3,)))
def generators_consumed_at_the_call(x):
    total = sum(scaled_items(x, 3)) + np.sum(np.array(list(scaled_items(x, 2))))
    for v in products_then_rest(x):
        total = total + v * v
    return total


@refused(floats((3,)), "a loop that may stop early on a generator")
def generator_walked_with_a_break(x):
    s = 0.0
    for v in scaled_items(x, 3):
        if v > 10.0:
            break
        s = s + v
    return s
