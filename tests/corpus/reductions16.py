"""`functools.reduce(f, xs[, init])` with a lambda (closing over a value being
differentiated), a user function, `operator.add`/`operator.mul`, a NumPy ufunc, over a
list built in a loop, a display, a generator expression; scalar and array variants
(transform/frontend/functional.py hands it to runtime/reduce_source.py, compiled like a
user's helper)."""
import functools
import operator
from functools import reduce

import numpy as np

from .case import case, floats, mixed


def damped(acc, v):
    return acc * np.tanh(v) + v


@case(mixed(floats((4,)), floats(())))
def reduce_lambda_closure(x, k):
    return functools.reduce(lambda a, b: a * k + b, [x, x ** 2, np.sin(x)], 0.0).sum()


@case(mixed(floats((4,)), floats(())))
def reduce_operator_add_no_initial(x, k):
    parts = [x * k, x ** 2, np.cos(x)]
    return np.sum(functools.reduce(operator.add, parts))


@case(mixed(floats((3,)), floats((), offset=1.0)))
def reduce_operator_mul_loop_list(x, k):
    xs = []
    for i in range(3):
        xs.append(x * (i + k))
    return np.sum(functools.reduce(operator.mul, xs, 1.0))


@case(mixed(floats((4,)), floats(())))
def reduce_user_function_array_initial(x, k):
    return np.sum(reduce(damped, [x, x * k, x + 1.0], np.ones(4)))


@case(mixed(floats((4,)), floats(())))
def reduce_ufunc(x, k):
    return np.sum(functools.reduce(np.multiply, [x, x + k, np.exp(x)]))


@case(floats((), ()))
def reduce_scalars(x, k):
    vals = [x, x * x, k, np.sin(x * k)]
    return functools.reduce(lambda acc, v: acc * 0.5 + v * k, vals, 0.0)


@case(mixed(floats((5,)), floats(())))
def reduce_generator_expression(x, k):
    return reduce(lambda a, b: a + b * k, (v * v for v in x), 0.0)


@case(mixed(floats((3, 3)), floats((3,))))
def reduce_matmul_chain(W, v):
    mats = [W, np.tanh(W), W.T]
    return np.sum(functools.reduce(np.matmul, mats) @ v)


@case(floats((3,)))
def reduce_single_item_no_initial(x):
    """One item and no initial value: functools.reduce returns the item (session 29:
    runtime/reduce_source.py's empty-iterable check must not fire for one)."""
    return np.sum(functools.reduce(operator.mul, [x * 2.0]) ** 2)
