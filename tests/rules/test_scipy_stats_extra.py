"""The location-scale families of runtime/rules/scipy_stats_extra.py against central
differences: every method in every argument with a rule, the frozen form, and user
programs under every policy; the cdf family's shape parameters by quadrature."""
import numpy as np
import pytest

from tests.gradcheck import POLICIES

stats = pytest.importorskip("scipy.stats")

from runtime import registry, unthunk  # noqa: E402
from tests.fd import assert_close, numerical_grad  # noqa: E402
from tests.rules.test_scipy_stats import LOC, METHODS, SCALE  # noqa: E402
from tests.rules.test_scipy_stats_frozen import through_rules  # noqa: E402
from transform import TransformError, grad  # noqa: E402

# family: (a point x inside the support at LOC, SCALE; shape parameters)
POINTS = {"halfnorm": (1.5, ()), "rayleigh": (2.0, ()), "maxwell": (2.5, ()),
          "gumbel_r": (0.9, ()), "gumbel_l": (-0.4, ()), "halfcauchy": (1.2, ()),
          "halflogistic": (1.6, ()), "chi2": (2.9, (3.5,)), "chi": (2.2, (2.7,)),
          "weibull_min": (1.8, (1.7,)), "weibull_max": (-1.1, (2.2,)), "pareto": (3.4, (2.5,)),
          "lomax": (1.0, (1.8,)), "invgamma": (1.4, (2.3,)), "invgauss": (1.5, (0.8,)),
          "skewnorm": (0.2, (1.4,)), "vonmises": (0.8, (1.6,)), "gennorm": (1.1, (1.6,)),
          "nakagami": (1.9, (1.3,)), "loggamma": (0.1, (1.7,)), "gompertz": (1.2, (0.8,)),
          "fisk": (1.7, (2.4,)), "betaprime": (1.6, (2.2, 3.1)), "powerlaw": (1.5, (1.8,)),
          "genlogistic": (0.6, (1.7,)), "dweibull": (-0.9, (1.6,)), "dgamma": (1.4, (2.2,)),
          "bradford": (1.1, (1.5,)), "powernorm": (0.7, (1.9,)), "truncexpon": (1.2, (1.3,)),
          "wald": (1.6, ()), "levy": (1.4, ()), "levy_l": (-0.8, ()),
          "semicircular": (0.9, ()), "cosine": (1.0, ()), "anglit": (0.5, ()),
          "arcsine": (1.1, ()), "hypsecant": (0.6, ()), "moyal": (0.9, ()), "gibrat": (1.8, ())}


def cases():
    for family, (x, shapes) in POINTS.items():
        for method in METHODS:
            for k in range(3 + len(shapes)):
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


@pytest.mark.parametrize("family", POINTS)
@pytest.mark.parametrize("method", ["logpdf", "cdf"])
def test_frozen(family, method):
    x, shapes = POINTS[family]
    params = shapes + (LOC, SCALE)

    def f(x, *params):
        return getattr(getattr(stats, family)(*params), method)(x)
    out, g_x, g_params = through_rules(family, method, x, params)
    assert out == pytest.approx(f(x, *params))
    assert_close(g_x, numerical_grad(f, (x,) + params, 0), rtol=1e-5)
    for k, cot in enumerate(g_params):
        assert_close(unthunk(cot), numerical_grad(f, (x,) + params, k + 1), rtol=1e-5)


def weibull_fit(log_c, log_scale, data):
    return -np.sum(stats.weibull_min.logpdf(data, np.exp(log_c), scale=np.exp(log_scale)))


def extremes(mu, beta, data):
    model = stats.gumbel_r(mu, beta)
    return -np.sum(model.logpdf(data)) + np.sum(stats.halfnorm.logsf(data - data.min() + 0.1,
                                                                      scale=beta))


def robust_regression(w, X, y):
    residual = y - X @ w
    return -np.sum(stats.gennorm.logpdf(residual, 1.5, scale=0.7)) \
        - np.sum(stats.chi2.logpdf(w * w + 0.5, 3.0)) - stats.skewnorm.logcdf(w[0], 2.0)


RNG = np.random.default_rng(11)
X = RNG.normal(size=(7, 3))
PROGRAMS = [(weibull_fit, (0.3, 0.2, RNG.uniform(0.5, 2.5, size=6)), (0, 1)),
            (extremes, (0.1, 1.3, RNG.normal(size=5)), (0, 1)),
            (robust_regression, (RNG.normal(size=3), X, RNG.normal(size=7)), (0,))]


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn,args,wrts", PROGRAMS, ids=lambda v: getattr(v, "__name__", ""))
def test_user_programs(fn, args, wrts, policy):
    for wrt in wrts:
        assert_close(grad(fn, wrt=wrt, policy=policy)(*args), numerical_grad(fn, args, wrt),
                     rtol=1e-5, atol=1e-8)


def cdf_in_the_shape(df):
    return stats.chi2.cdf(2.0, df)


@pytest.mark.parametrize("policy", POLICIES)
def test_the_cdf_family_in_a_shape(policy):
    assert_close(grad(cdf_in_the_shape, policy=policy)(3.0),
                 numerical_grad(cdf_in_the_shape, (3.0,), 0), rtol=1e-6)
