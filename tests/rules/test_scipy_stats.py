"""scipy.stats rules against central differences: every family and method in every
argument that has a rule (through the registered rule itself), and user programs that
call them (a Gaussian likelihood, a Student-t regression, a Bayesian logistic model)."""
import numpy as np
import pytest

from tests.gradcheck import POLICIES

stats = pytest.importorskip("scipy.stats")

from runtime import registry, unthunk  # noqa: E402
from tests.fd import assert_close, numerical_grad  # noqa: E402
from transform import grad  # noqa: E402

# family: (a point x, shape parameters), inside the support
POINTS = {"norm": (0.7, ()), "laplace": (0.4, ()), "logistic": (-0.6, ()), "cauchy": (1.3, ()),
          "expon": (2.2, ()), "uniform": (1.4, ()), "t": (0.8, (3.5,)), "gamma": (2.1, (2.5,)),
          "beta": (1.5, (2.5, 1.7)), "lognorm": (2.4, (0.6,))}
METHODS = ("logpdf", "pdf", "cdf", "logcdf", "sf", "logsf")
LOC, SCALE = 0.3, 1.9


def cases():
    for family, (x, shapes) in POINTS.items():
        for method in METHODS:
            n_args = 1 + len(shapes) + 2
            for k in range(n_args):
                yield family, method, k


@pytest.mark.parametrize("family,method,k", list(cases()))
def test_rule_matches_finite_differences(family, method, k):
    x, shapes = POINTS[family]
    fn = getattr(getattr(stats, family), method)
    rule = registry.lookup(fn)
    args = (x,) + shapes + (LOC, SCALE)
    assert rule.params[k] in rule.templates      # the cdf family's shapes too (quadrature)
    out, pullback = rule.rrule(*args)
    assert out == pytest.approx(fn(*args))
    assert_close(unthunk(pullback(1.0)[k]), numerical_grad(fn, args, k), rtol=1e-5)


@pytest.mark.parametrize("fn,args", [
    (stats.poisson.logpmf, (3, 2.2)), (stats.poisson.pmf, (3, 2.2)),
    (stats.bernoulli.logpmf, (1, 0.3)), (stats.bernoulli.pmf, (0, 0.3)),
    (stats.binom.logpmf, (4, 10, 0.35)), (stats.binom.pmf, (4, 10, 0.35))])
def test_discrete_in_the_probability_parameter(fn, args):
    k = len(args) - 1
    out, pullback = registry.lookup(fn).rrule(*args)
    assert_close(unthunk(pullback(1.0)[k]), numerical_grad(fn, args, k), rtol=1e-5)


def gaussian_nll(mu, log_sigma, data):
    return -np.sum(stats.norm.logpdf(data, mu, np.exp(log_sigma)))


def student_t_regression(w, X, y):
    return -np.sum(stats.t.logpdf(y - X @ w, 4.0, scale=0.5))


def mvn_loss(mean, L, xs):
    cov = L @ L.T + 0.5 * np.eye(2)
    return -np.sum(stats.multivariate_normal.logpdf(xs, mean, cov))


def bayesian_logistic(w, X, y):
    p = 1 / (1 + np.exp(-(X @ w)))
    return -np.sum(stats.bernoulli.logpmf(y, p)) - np.sum(stats.norm.logpdf(w, 0.0, 2.0))


RNG = np.random.default_rng(3)
X = RNG.normal(size=(8, 3))
PROGRAMS = [(gaussian_nll, (0.4, -0.2, RNG.normal(size=6)), (0, 1)),
            (student_t_regression, (RNG.normal(size=3), X, RNG.normal(size=8)), (0,)),
            (mvn_loss, (np.array([0.2, -0.1]), RNG.normal(size=(2, 2)), RNG.normal(size=(5, 2))),
             (0, 1)),
            (bayesian_logistic, (RNG.normal(size=3), X, (RNG.uniform(size=8) > 0.5) * 1), (0,))]


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn,args,wrts", PROGRAMS, ids=lambda v: getattr(v, "__name__", ""))
def test_user_programs(fn, args, wrts, policy):
    for wrt in wrts:
        assert_close(grad(fn, wrt=wrt, policy=policy)(*args), numerical_grad(fn, args, wrt),
                     rtol=1e-5, atol=1e-8)
