"""Recursive user functions (depth bounded by an integer argument)."""
import numpy as np

from .case import case, not_yet, floats, mixed

N3 = lambda rng: [3]  # noqa: E731


def power_rec(x, n):
    if n == 0:
        return 1.0
    return x * power_rec(x, n - 1)


def sin_iter_rec(x, n):
    if n == 0:
        return x
    return np.sin(sin_iter_rec(x, n - 1)) + 0.1 * x


def sum_rec(a, k):
    if k == 0:
        return a[0]
    return a[k] * a[k] + sum_rec(a, k - 1)


def even_rec(x, n):
    if n == 0:
        return x
    return odd_rec(x * 0.5, n - 1) + x


def odd_rec(x, n):
    if n == 0:
        return x * x
    return even_rec(np.cos(x), n - 1)


@not_yet(mixed(floats(()), N3))
def recursive_power(x, n):
    return power_rec(x, n)


@not_yet(mixed(floats(()), N3))
def recursive_sin(x, n):
    return sin_iter_rec(x, n)


@not_yet(mixed(floats((4,)), N3))
def recursive_array_sum(a, n):
    return sum_rec(a, n)


@not_yet(mixed(floats(()), N3))
def mutual_recursion(x, n):
    return even_rec(x, n)


@not_yet(mixed(floats(()), N3))
def self_recursive(x, n):
    if n == 0:
        return x
    return self_recursive(x * x * 0.5 + 0.1, n - 1) * x


@case(floats(()))
def unrolled_recursion_equivalent(x):
    r = 1.0
    for _ in range(3):
        r = x * r
    return r
