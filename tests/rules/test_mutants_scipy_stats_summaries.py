"""Behaviour the mutation run (tools/mutate.py) found unpinned in
runtime/rules/scipy_stats_summaries.py: each test kills a mutant the other tests let
through."""
import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad
from tests.gradcheck import POLICIES

stats = pytest.importorskip("scipy.stats")

from transform import grad  # noqa: E402


def low_moments(a):
    return np.sum(stats.moment(a, 1, axis=0)) + np.sum(stats.moment(a, 0, axis=1) * a[:, 0])


@pytest.mark.parametrize("policy", POLICIES)
def test_moments_of_order_0_and_1_of_data_with_zeros(policy):
    """moment(a, 1) (0 for centred data) and moment(a, 0) (1) are constants: their
    cotangent is exactly 0, also where an entry of a is 0 (not 0 / 0)."""
    a = np.array([[0.0, 1.5, -0.4], [2.0, 0.0, 0.7]])
    got = grad(low_moments, policy=policy)(a)
    assert np.all(np.isfinite(got))
    assert_close(got, numerical_grad(low_moments, (a,), 0), rtol=1e-5, atol=1e-8)
