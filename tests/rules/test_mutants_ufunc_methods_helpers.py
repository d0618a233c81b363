"""Mutation survivors of runtime/rules/ufunc_methods_helpers.py pinned by behaviour:
running extremes along an axis of length one."""
import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_grad
from tests.rules.checks import check_rule, rand


@pytest.mark.parametrize("fn", [np.maximum.accumulate, np.minimum.accumulate])
@pytest.mark.parametrize("shape, axis", [((1,), 0), ((3, 1), 1), ((1, 4), 0), ((2, 1, 3), 1)])
def test_running_extreme_along_an_axis_of_length_one(fn, shape, axis):
    """One element per row: each is its own running extreme, so the cotangent passes
    through unchanged (the rows are counted by the axis' length, even when it is 1)."""
    check_rule(fn, [rand(*shape, seed=21)], {"axis": axis})


def running_peak_loss(x):
    return np.sum(np.maximum.accumulate(x, axis=1) ** 2)


@pytest.mark.parametrize("policy", POLICIES)
def test_running_peak_of_a_column(policy):
    check_grad(running_peak_loss, [rand(4, 1, seed=22)], wrt=(0,), policy=policy)
