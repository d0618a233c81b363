"""Behaviour the mutation run (tools/mutate.py) found unpinned in
runtime/rules/indexing_helpers.py (np.r_ / np.c_): each test kills a mutant the other tests
let through."""
import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_grad


def _with_a_range(x):
    return np.sum(np.r_[x, 0:3, x * 2.0] * np.arange(1.0, 8.0))


@pytest.mark.parametrize("policy", POLICIES)
def test_r_with_a_slice_item_gives_the_slice_no_cotangent(policy):
    """A slice inside np.r_ is a constant range, not an item: the arrays around it get
    their cotangents at their own positions."""
    check_grad(_with_a_range, (np.array([0.5, -1.0]),), policy=policy)
