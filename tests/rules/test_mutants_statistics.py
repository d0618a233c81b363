"""Behaviour the mutation run (tools/mutate.py) found unpinned in
runtime/rules/statistics.py: each test kills a mutant the other tests let through."""
import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_grad
from tests.rules.checks import check_rule


@pytest.mark.parametrize("axis", [None, 1])
def test_nancumprod_with_a_nan_before_a_zero(axis):
    """A NaN counts as 1 in the running product that bridges the first zero: the zero's
    cotangent is sum over later j of g_j times the product of the others, NaN as 1."""
    a = np.array([[0.5, np.nan, 0.0, 2.0, -1.5], [1.2, 0.0, np.nan, 0.7, 0.9]])
    check_rule(np.nancumprod, [a], {"axis": axis})


def products_with_gaps(x):
    y = x * 1.0
    y[1] = np.nan
    return np.sum(np.nancumprod(y) * np.arange(1.0, 5.0))


@pytest.mark.parametrize("policy", POLICIES)
def test_nancumprod_with_a_nan_before_a_zero_in_compiled_code(policy):
    check_grad(products_with_gaps, [np.array([0.5, 3.0, 0.0, 2.0])], policy=policy)
