"""Behaviour the mutation run (tools/mutate.py) found unpinned in
runtime/rules/scipy_stats_summaries.py: each test kills a mutant the other tests let
through."""
import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad
from tests.gradcheck import POLICIES
from tests.rules.checks import case, check_rule, rand

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


P3 = rand(2, 3, 4, seed=21, low=0.5, high=2.0)
W3 = rand(2, 3, 4, seed=22, low=0.5, high=1.5)
# along an axis that is not the last of three-dimensional data: a reduction over axis 1
# of the moved array (instead of its last axis) is then a different one
THREE_D = [case(stats.variation, P3, 1), case(stats.variation, P3, 0, ddof=1),
           case(stats.gmean, P3, 1), case(stats.gmean, P3, 0, weights=W3),
           case(stats.hmean, P3, 1), case(stats.hmean, P3, 0, weights=W3),
           case(stats.skew, P3, 0), case(stats.kurtosis, P3, 1, bias=False),
           case(stats.moment, P3, 3, 0), case(stats.skew, P3, 0, bias=False),
           case(stats.sem, P3, 1), case(stats.zscore, P3, 1),
           case(stats.entropy, P3, W3, axis=1), case(stats.entropy, P3, axis=0)]


@pytest.mark.parametrize("fn, args, kwargs", THREE_D)
def test_three_dimensional_data_along_a_middle_axis(fn, args, kwargs):
    check_rule(fn, args, kwargs)


def few_points(a):
    return np.sum(stats.kurtosis(a, axis=1, bias=False) ** 2) + \
        np.sum(stats.skew(a[:, :2], axis=1, bias=False) + stats.skew(a, axis=1, bias=False))


@pytest.mark.parametrize("policy", POLICIES)
def test_unbiased_skew_and_kurtosis_of_too_few_points(policy):
    """SciPy corrects the bias only with more than 2 (skew) or 3 (kurtosis) points and
    returns the biased value otherwise: the rule divided by n - 2 or n - 3 there
    (ZeroDivisionError at n = 3 for kurtosis, n = 2 for skew); now the biased slope."""
    a = np.array([[0.2, 1.1, 3.5], [-0.7, 0.4, 0.1]])
    got = grad(few_points, policy=policy)(a)
    assert_close(got, numerical_grad(few_points, (a,), 0), rtol=1e-5, atol=1e-8)


@pytest.mark.parametrize("kwargs", [dict(nan_policy="omit"), dict(axis=None)])
def test_entropy_outside_the_rule_is_refused(kwargs):
    """entropy's rule takes nan_policy='propagate' and an integer axis only."""
    from runtime import lookup, unthunk
    pk = rand(3, 4, seed=23, low=0.2, high=1.0)
    out, pullback = lookup(stats.entropy).rrule(pk, **kwargs)
    with pytest.raises(NotImplementedError):
        unthunk(pullback(np.ones(np.shape(out)))[0])
