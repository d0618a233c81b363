"""Mutation survivors of runtime/rules/scipy_stats_more.py pinned by behaviour: a frozen
distribution of a family without rules is refused with a TypeError naming the method
(it was a KeyError), and the discrete cdf family's `loc` shifts k."""
import numpy as np
import pytest

stats = pytest.importorskip("scipy.stats")

from tests.fd import assert_close, numerical_grad  # noqa: E402
from tests.gradcheck import POLICIES  # noqa: E402
from transform import grad  # noqa: E402


def gumbel_logpdf(x):
    return np.sum(stats.genextreme(0.2, 0.0, 1.0).logpdf(x))   # (gumbel_r has rules now)


def test_a_frozen_family_without_rules_is_refused():
    with pytest.raises(TypeError, match=r"genextreme\(\.\.\.\)\.logpdf has no derivative rule"):
        grad(gumbel_logpdf)(np.array([0.3, 1.2]))


def poisson_cdf_shifted(mu):
    return np.sum(stats.poisson.cdf(np.array([3.0, 5.0]), mu, loc=2))


def binom_logsf_shifted(p):
    return np.sum(stats.binom.logsf(np.array([3.0, 5.0]), 9, p, loc=1))


def bernoulli_cdf_shifted(p):
    return np.sum(stats.bernoulli.cdf(np.array([-0.5, 0.5, 1.5]), p, loc=-1))


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("f, p", [(poisson_cdf_shifted, 2.5), (binom_logsf_shifted, 0.4),
                                  (bernoulli_cdf_shifted, 0.3)])
def test_discrete_cdf_with_a_loc(f, p, policy):
    assert_close(grad(f, policy=policy)(p), numerical_grad(f, [p], 0), rtol=1e-6, atol=1e-9)
