"""Behaviour the mutation run (tools/mutate.py) found unpinned in
runtime/rules/math_module.py: each test kills a mutant the other tests let through."""
import math

import numpy as np
import pytest

from runtime.rules.math_module import digamma
from tests.fd import assert_close, numerical_grad
from tests.gradcheck import POLICIES, check_grad
from transform import grad

POINTS = [-2.5, -0.7, 0.3, 0.5, 1.0, 2.5, 9.5, 10.0, 10.5, 30.0, 1e4]


@pytest.mark.parametrize("x", POINTS)
def test_digamma_matches_scipy_to_its_stated_error(x):
    """math.lgamma's derivative: the recurrence, the reflection and the asymptotic series
    together are within 1e-13 (relative) of scipy.special.digamma, on both sides of the
    reflection point 0.5 and of the series' start at 10."""
    special = pytest.importorskip("scipy.special")
    want = special.digamma(x)
    assert math.isclose(digamma(x), want, rel_tol=1e-13, abs_tol=1e-13)


# `xs * n` repeats a list when n is an int. In a helper whose parameter xs may be a
# list, `xs * math.floor(t)` is decided at run time only because math.floor is declared
# int_result=True; without it the product is differentiated as a scale (d/dx 4, not 8).
def floor_copies(xs, t):
    return xs * math.floor(t)


def trunc_copies(xs, t):
    return xs * math.trunc(t)


def ceil_copies(xs, t):
    return xs * math.ceil(t)


def prod_copies(xs, t):
    return xs * math.prod([1, 2])


def factorial_copies(xs, t):
    return xs * math.factorial(2)


def gcd_copies(xs, t):
    return xs * math.gcd(4, 6)


def isqrt_copies(xs, t):
    return xs * math.isqrt(5)


def lcm_copies(xs, t):
    return xs * math.lcm(1, 2)


def by_floor(x, t):
    return sum(floor_copies([x, 3.0 * x], t))


def by_trunc(x, t):
    return sum(trunc_copies([x, 3.0 * x], t))


def by_ceil(x, t):
    return sum(ceil_copies([x, 3.0 * x], t))


def by_prod(x, t):
    return sum(prod_copies([x, 3.0 * x], t))


def by_factorial(x, t):
    return sum(factorial_copies([x, 3.0 * x], t))


def by_gcd(x, t):
    return sum(gcd_copies([x, 3.0 * x], t))


def by_isqrt(x, t):
    return sum(isqrt_copies([x, 3.0 * x], t))


def by_lcm(x, t):
    return sum(lcm_copies([x, 3.0 * x], t))


REPEATS = [by_floor, by_trunc, by_ceil, by_prod, by_factorial, by_gcd, by_isqrt]
if hasattr(math, "lcm"):
    REPEATS.append(by_lcm)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn", REPEATS, ids=lambda f: f.__name__)
def test_a_list_times_an_int_valued_math_result_repeats(fn, policy):
    """Each count is 2: [x, 3x] repeated twice sums to 8x, so d/dx = 8."""
    got = grad(fn, wrt=0, policy=policy)(1.5, 2.0)
    assert_close(got, numerical_grad(fn, (1.5, 2.0), 0), rtol=1e-6)
    assert got == pytest.approx(8.0, abs=1e-12)


def prod_with_start(x, s):
    return math.prod([x, 2.0 * x, 0.5], start=s)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("wrt", [0, 1])
def test_math_prod_start_is_differentiated(wrt, policy):
    """d/ds prod(xs, start=s) = prod(xs) (no test differentiated start)."""
    args = (1.3, -0.7)
    got = grad(prod_with_start, wrt=wrt, policy=policy)(*args)
    assert_close(got, numerical_grad(prod_with_start, args, wrt), rtol=1e-6)


def prod_of_arrays(a, b):
    return np.sum(math.prod([a, b, a]) * np.array([1.0, -2.0, 0.5]))


@pytest.mark.parametrize("policy", POLICIES)
def test_math_prod_of_arrays(policy):
    """math.prod of arrays is their elementwise product (an array, not a float): its
    factors' cotangents are arrays in a list."""
    args = [np.array([0.4, -1.1, 2.0]), np.array([1.5, 0.3, -0.8])]
    check_grad(prod_of_arrays, args, policy=policy)


def pow_at_zero_base(x, y):
    return math.pow(x, y) + 3.0 * y


@pytest.mark.parametrize("policy", POLICIES)
def test_math_pow_exponent_cotangent_at_a_zero_base(policy):
    """0 ** y is 0 for every y > 0, so d/dy is 0 there: the rule must not take log(0)
    (a ValueError) nor give a nonzero stand-in."""
    args = (0.0, 2.5)
    got = grad(pow_at_zero_base, wrt=1, policy=policy)(*args)
    assert_close(got, numerical_grad(pow_at_zero_base, args, 1), rtol=1e-6)
    assert got == pytest.approx(3.0, abs=1e-12)
    assert grad(math.pow, wrt=1)(0.0, 2.5) == 0.0
