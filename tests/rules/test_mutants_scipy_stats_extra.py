"""Behaviour the mutation run (tools/mutate.py) found unpinned in
runtime/rules/scipy_stats_extra.py: each test kills a mutant the other tests let through."""
import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad
from tests.gradcheck import POLICIES

stats = pytest.importorskip("scipy.stats")

from transform import grad  # noqa: E402


def gennorm_at_the_mode(x, loc):
    return np.sum(stats.gennorm.logpdf(x, 1.6, loc=loc, scale=0.8))


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("wrt", [0, 1])
def test_gennorm_slope_at_its_mode_is_zero(wrt, policy):
    """gennorm's slope -beta |z|^(beta-1) sign(z) is 0 at z = 0 for beta > 1 (the
    density's peak): a point equal to loc gets 0, not the nan of 0 / sign(0)."""
    args = (np.array([0.3, -0.7, 1.1]), np.array([0.3, 0.2, -0.4]))
    got = grad(gennorm_at_the_mode, wrt=wrt, policy=policy)(*args)
    assert np.all(np.isfinite(got))
    assert_close(got, numerical_grad(gennorm_at_the_mode, args, wrt), rtol=1e-5, atol=1e-8)


def chi_fit(x, df, loc, scale):
    return np.sum(stats.chi.logpdf(x, df, loc=loc, scale=scale)) + \
        np.sum(stats.chi.logsf(x, df, loc=loc, scale=scale))


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("wrt", [0, 1, 2, 3])
def test_chi_away_from_z_equal_one(wrt, policy):
    """test_scipy_stats_extra's chi point sits at z = (x - loc) / scale = 1, where z and
    1 / z (and log z = 0) cannot be told apart: here z runs over 0.4 .. 2.6."""
    args = (np.array([0.9, 1.6, 3.2, 5.3]), 2.7, 0.1, 1.9)
    if wrt == 1:                                  # logsf has no rule in a shape parameter
        f = lambda df: np.sum(stats.chi.logpdf(args[0], df, loc=0.1, scale=1.9))  # noqa: E731
        got, want = grad(f, policy=policy)(2.7), numerical_grad(f, (2.7,), 0)
    else:
        got = grad(chi_fit, wrt=wrt, policy=policy)(*args)
        want = numerical_grad(chi_fit, args, wrt)
    assert_close(got, want, rtol=1e-5, atol=1e-8)
