"""The math rules that exist only on newer Pythons (math.sumprod 3.12+, math.fma 3.13+),
apart from test_mutants_math_module.py so that `make compat` (no SciPy) runs them."""
import math

import pytest

from tests.gradcheck import POLICIES, check_grad


def dot_of_lists(x, y):
    return math.sumprod([x, y, 1.5], [y * y, x, 2.0])


def fused_only(x, y, z):
    return math.fma(x * x, y, math.sin(z))


@pytest.mark.skipif(not hasattr(math, "sumprod"), reason="math.sumprod is Python 3.12+")
@pytest.mark.parametrize("policy", POLICIES)
def test_sumprod_of_lists_against_finite_differences(policy):
    """math.sumprod (3.12+) of two lists, each operand's cotangent a list (not a scalar)."""
    check_grad(dot_of_lists, [0.8, -0.3], wrt=(0, 1), policy=policy)


@pytest.mark.skipif(not hasattr(math, "fma"), reason="math.fma is Python 3.13+")
@pytest.mark.parametrize("policy", POLICIES)
def test_fma_against_finite_differences(policy):
    """math.fma(x, y, z) = x * y + z (3.13+), each operand apart."""
    check_grad(fused_only, [0.8, -0.3, 0.4], wrt=(0, 1, 2), policy=policy)


def dot_read_twice(p, q):
    return math.sumprod(p, q) + math.sumprod(p, p) * 0.5


@pytest.mark.skipif(not hasattr(math, "sumprod"), reason="math.sumprod is Python 3.12+")
@pytest.mark.parametrize("policy", POLICIES)
def test_sumprod_cotangents_are_lists_not_numbers(policy):
    """p's two list cotangents add entry by entry (not as numbers: `+` would concatenate
    the lists), and a list parameter passed to sumprod is not a number."""
    check_grad(dot_read_twice, [[0.8, -0.3, 1.2], [0.5, 2.0, -1.0]], wrt=(0, 1),
               policy=policy)
