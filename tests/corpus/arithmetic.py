"""Straight-line arithmetic on python floats and arrays: + - * / ** @, unary -, math."""
import math

import numpy as np

from .case import case, floats, positive, mixed


@case(floats((), ()))
def add_mul(x, y):
    return x * y + x


@case(floats((), ()))
def sub_neg(x, y):
    return -(x - y) * x


@case(mixed(floats(()), positive(())))
def divide(x, y):
    return x / y + y / (1.0 + x * x)


@case(positive(()))
def power_constant(x):
    return x ** 3 + x ** 0.5 - x ** -1


@case(positive((), ()))
def power_both(x, y):
    return x ** y


@case(floats(()))
def unary_plus_minus(x):
    return +x - (-x) * 2.0


@case(floats(()))
def polynomial(x):
    return 3.0 * x ** 4 - 2.0 * x ** 3 + x * x - 5.0 * x + 1.0


@case(floats(()))
def math_trig(x):
    return math.sin(x) * math.cos(x) + math.tan(0.3 * x)


@case(positive(()))
def math_exp_log_sqrt(x):
    return math.exp(0.5 * x) + math.log(x) * math.sqrt(x)


@case(floats(()))
def math_tanh(x):
    return math.tanh(x) ** 2


@case(floats(()), wrt="x")
def math_constants(x):
    return math.pi * x + math.e * x * x


@case(floats((), ()))
def reused_operand(x, y):
    z = x * y
    return z * z + z * x


@case(floats((), ()))
def rebinding(x, y):
    a = x + y
    a = a * x
    a = a - y
    return a * a


@case(floats((), ()))
def self_referential(x, y):
    x = x * y
    y = x + y
    x = x * x + y
    return x


@case(floats((3,), (3,)))
def array_arithmetic(a, b):
    return np.sum(a * b - a / (1.0 + b * b) + 2.0 * a)


@case(floats((3, 3), (3,)))
def matmul_vector(A, x):
    return np.sum((A @ x) ** 2)


@case(floats((2, 3), (3, 4)))
def matmul_matrix(A, B):
    C = A @ B
    return np.sum(C * C)


@case(floats((3,), ()))
def broadcast_scalar(a, s):
    return np.sum(a * s + s)


@case(floats((2, 3), (3,)))
def broadcast_row(A, b):
    return np.sum((A + b) ** 2)


@case(floats((3,), ()), wrt=(0, 1))
def unused_argument(a, s):
    return np.sum(a * a)


@case(floats(()))
def constant_output_part(x):
    y = 2.0
    return y * y + x


@case(mixed(floats((3,)), lambda rng: [4]))
def integer_argument(a, n):
    return np.sum(a ** n) / n


@case(positive((3,)))
def vector_power(a):
    return np.sum(a ** 2.5)


@case(floats((), ()))
def abs_value(x, y):
    return abs(x) * y + abs(x * y)
