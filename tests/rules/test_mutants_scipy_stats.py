"""Behaviour the mutation run (tools/mutate.py) found unpinned in
runtime/rules/scipy_stats.py: each test kills a mutant the other tests let through."""
import numpy as np
import pytest

from runtime import registry
from runtime.thunks import unthunk
from tests.fd import assert_close, numerical_grad
from tests.gradcheck import POLICIES, check_grad, rng

stats = pytest.importorskip("scipy.stats")

SHAPED = {"t": (0.8, (3.5,)), "gamma": (2.1, (2.5,)), "beta": (0.6, (2.5, 1.7)),
          "lognorm": (2.4, (0.6,))}


@pytest.mark.parametrize("method", ["logpdf", "pdf"])
@pytest.mark.parametrize("family", list(SHAPED))
def test_density_in_its_shape_parameters(family, method):
    """The families with shape derivatives differentiate their densities in the shapes
    (the rule-table test also accepts a refusal there, as for the cdf family)."""
    fn = getattr(getattr(stats, family), method)
    x, shapes = SHAPED[family]
    args = (x, *shapes, 0.1, 1.3)
    out, pullback = registry.lookup(fn).rrule(*args)
    cotangents = pullback(1.0)
    for k in range(1, 1 + len(shapes)):
        assert_close(unthunk(cotangents[k]), numerical_grad(fn, args, k), rtol=1e-5)


def mvn_nll(xs, mean, cov):
    return -np.sum(stats.multivariate_normal.logpdf(xs, mean, cov))


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("cov", [1.7, np.array([0.9, 1.6, 2.2])], ids=["number", "diagonal"])
def test_multivariate_normal_with_a_number_or_a_diagonal_as_cov(cov, policy):
    """cov as a number (times the identity: its cotangent is the trace) and as the
    diagonal (its cotangent the diagonal)."""
    r = rng("mvn cov", np.ndim(cov))
    check_grad(mvn_nll, (r.standard_normal((4, 3)), r.standard_normal(3), cov),
               policy=policy)


def mvn_mean_omitted(xs, s):
    cov = s @ s.T + 0.5 * np.eye(2)
    return np.sum(stats.multivariate_normal.logpdf(xs, cov=cov) * np.array([1.0, -0.3, 2.0]))


@pytest.mark.parametrize("policy", POLICIES)
def test_multivariate_normal_mean_omitted_matrix_cov(policy):
    """Without a mean SciPy reads the dimension from a covariance matrix's order (2 here,
    not 1 as for a number or a vector), and the mean is zero."""
    r = rng("mvn mean omitted")
    check_grad(mvn_mean_omitted, (r.standard_normal((3, 2)), r.standard_normal((2, 2))),
               policy=policy)
