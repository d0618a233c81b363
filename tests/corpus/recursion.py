"""Recursive user functions (depth bounded by an integer argument)."""
import numpy as np

from .case import case, floats, mixed

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


@case(mixed(floats(()), N3))
def recursive_power(x, n):
    return power_rec(x, n)


@case(mixed(floats(()), N3))
def recursive_sin(x, n):
    return sin_iter_rec(x, n)


@case(mixed(floats((4,)), N3))
def recursive_array_sum(a, n):
    return sum_rec(a, n)


@case(mixed(floats(()), N3))
def mutual_recursion(x, n):
    return even_rec(x, n)


@case(mixed(floats(()), N3))
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


def tree_sum(a, lo, hi):
    if hi - lo == 1:
        return a[lo] * a[lo]
    mid = (lo + hi) // 2
    return tree_sum(a, lo, mid) + np.sin(tree_sum(a, mid, hi))


def horner(coeffs, x, k):
    if k == len(coeffs) - 1:
        return coeffs[k]
    return coeffs[k] + x * horner(coeffs, x, k + 1)


def rec_with_loop(x, n):
    if n == 0:
        return x
    s = 0.0
    for i in range(2):
        s = s + np.tanh(x * (i + 1))
    return rec_with_loop(s, n - 1) * x


@case(floats((4,)))
def divide_and_conquer(a):
    return tree_sum(a, 0, 4)


@case(mixed(floats((4,)), floats(())))
def recursive_horner(c, x):
    return horner(c, x, 0)


@case(mixed(floats(()), N3))
def recursion_with_loop_inside(x, n):
    return rec_with_loop(x, n)
