"""Behaviour the mutation run (tools/mutate.py) found unpinned in
runtime/rules/elementwise.py: each test kills a mutant the other tests let through."""
import numpy as np
import pytest

from tests.gradcheck import POLICIES
from tests.rules.checks import check_rule
from transform import grad


def test_copysign_at_a_zero_magnitude_is_a_symmetric_kink():
    """copysign(x1, x2) = |x1| sign(x2): at x1 = 0 the central difference is 0, and the
    rule's sign(x1) * sign(ans) gives 0 too (not a division by sign 0)."""
    check_rule(np.copysign, (np.array([0.0, 1.5, -2.0]), np.array([-1.0, 2.0, -3.0])), {})


def _total_nan_to_num(x):
    return np.sum(np.nan_to_num(x) * np.array([2.0, 3.0, 0.5, 0.25]))


@pytest.mark.parametrize("policy", POLICIES)
def test_nan_to_num_passes_no_cotangent_to_replaced_entries(policy):
    """Where x is nan or infinite, nan_to_num's output is a constant: cotangent 0 there
    (finite differences cannot be taken at inf, so this is a value check)."""
    x = np.array([1.5, np.nan, np.inf, -np.inf])
    np.testing.assert_array_equal(grad(_total_nan_to_num, policy=policy)(x), [2.0, 0, 0, 0])
