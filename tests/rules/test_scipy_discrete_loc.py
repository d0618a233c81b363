"""Discrete pmf/logpmf with loc: the distribution sees k - loc (the rules once used k:
a silent wrong gradient in the frozen and the plain forms)."""
import numpy as np
import pytest

stats = pytest.importorskip("scipy.stats")

from transform import grad  # noqa: E402
from tests.fd import assert_close, numerical_grad  # noqa: E402
from tests.gradcheck import POLICIES  # noqa: E402

K = np.array([2, 4, 7])
def poisson_frozen_logpmf(mu):
    return np.sum(stats.poisson(mu, loc=2).logpmf(K))


def poisson_frozen_pmf(mu):
    return np.sum(stats.poisson(mu, loc=2).pmf(K))


def poisson_logpmf(mu):
    return np.sum(stats.poisson.logpmf(K, mu, loc=2))


def poisson_pmf_keyword(mu):
    return np.sum(stats.poisson.pmf(K, mu=mu, loc=1))


def binom_frozen_logpmf(p):
    return np.sum(stats.binom(10, p, loc=1).logpmf(K))


def binom_pmf(p):
    return np.sum(stats.binom.pmf(K, 10, p, 1))


def bernoulli_frozen_pmf(p):
    return np.sum(stats.bernoulli(p, loc=1).pmf(np.array([1, 2])))


def bernoulli_logpmf(p):
    return np.sum(stats.bernoulli.logpmf(np.array([1, 2, 2]), p, loc=1))


CASES = {"poisson_frozen_logpmf": (poisson_frozen_logpmf, 2.3),
         "poisson_frozen_pmf": (poisson_frozen_pmf, 2.3),
         "poisson_logpmf": (poisson_logpmf, 2.3),
         "poisson_pmf_keyword": (poisson_pmf_keyword, 1.7),
         "binom_frozen_logpmf": (binom_frozen_logpmf, 0.35),
         "binom_pmf": (binom_pmf, 0.35),
         "bernoulli_frozen_pmf": (bernoulli_frozen_pmf, 0.3),
         "bernoulli_logpmf": (bernoulli_logpmf, 0.3)}


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("name", sorted(CASES))
def test_discrete_with_loc(name, policy):
    fn, at = CASES[name]
    assert_close(grad(fn, policy=policy)(at), numerical_grad(fn, (at,), 0))
