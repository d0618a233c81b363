"""The cdf family (cdf, logcdf, sf, logsf) of the continuous scipy.stats families in
their shape parameters (runtime/rules/scipy_stats_shapes.py: adaptive quadrature)
against central differences: points across the support and in both tails, shapes
below 1 (densities unbounded at an end), broadcast shapes, float32 kept, the frozen
form and compiled programs under every policy, and the refusals."""
import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_grad

stats = pytest.importorskip("scipy.stats")

from runtime import registry, unthunk  # noqa: E402
from runtime.rules import scipy_stats_shapes  # noqa: E402
from tests.fd import assert_close, numerical_grad  # noqa: E402
from tests.rules.checks import check_float32, check_rule  # noqa: E402
from transform import grad  # noqa: E402

METHODS = ("cdf", "logcdf", "sf", "logsf")
# family: (points x across the support and into both tails (loc 0, scale 1), shapes)
CASES = {
    "t": (np.array([-30.0, -2.5, -0.3, 0.4, 3.0, 40.0]), (3.5,)),
    "gamma": (np.array([-1.0, 0.02, 0.8, 2.5, 9.0, 25.0]), (2.5,)),
    "gamma_small": (np.array([1e-3, 0.05, 0.7, 4.0]), (0.4,)),
    "beta": (np.array([0.01, 0.3, 0.55, 0.9, 0.995]), (2.5, 1.7)),
    "beta_small": (np.array([0.001, 0.2, 0.8, 0.999]), (0.6, 0.5)),
    "lognorm": (np.array([0.05, 0.6, 1.0, 2.4, 12.0]), (0.6,)),
    "truncexpon": (np.array([0.1, 0.9, 1.2, 1.29]), (1.3,)),       # its upper bound is b
    "truncexpon_fixed": (np.array([0.5, 2.0, 2.4]), (2.5,)),  # b = 2.5: s / 1.25 + 0.5 = s
    "genlogistic": (np.array([-3.0, 0.6, 4.0]), (1.7,)),   # dL/dc is inf where p is 0
    "vonmises": (np.array([-3.0, -0.5, 0.8, 3.1, 7.0]), (1.6,)),   # periodic
    "chi2": (np.array([0.1, 2.9, 15.0]), (3.5,)),
    "betaprime": (np.array([0.2, 1.6, 30.0]), (2.2, 3.1)),
}


def _family(case):
    return case.split("_")[0]


def _checks():
    for case, (x, shapes) in CASES.items():
        for method in METHODS:
            for k in range(len(shapes)):
                yield case, method, k


@pytest.mark.parametrize("case,method,k", list(_checks()))
def test_each_shape_against_finite_differences(case, method, k):
    x, shapes = CASES[case]
    fn = getattr(getattr(stats, _family(case)), method)
    with np.errstate(all="ignore"):
        values = fn(x, *shapes)
    keep = np.isfinite(values)          # logcdf of a point below the support is -inf
    check_rule(fn, (x[keep],) + shapes, argnums=[1 + k], rtol=1e-6, atol=1e-10)


@pytest.mark.parametrize("case,method,k", list(_checks()))
def test_float32_stays_float32(case, method, k):
    x, shapes = CASES[case]
    shapes32 = tuple(np.full(x.shape, s, dtype=np.float32) for s in shapes)
    check_float32(getattr(getattr(stats, _family(case)), method), (x[1:-1],) +
                  tuple(s[1:-1] for s in shapes32), argnums=[1 + k])


@pytest.mark.parametrize("method", METHODS)
def test_broadcast_shapes_with_loc_and_scale(method):
    x, a, b = np.array([[0.2, 0.5, 0.7]]), np.array([[1.5], [3.0]]), 2.2
    fn = getattr(stats.beta, method)
    out, pullback = registry.lookup(fn).rrule(x, a, b, -0.1, 1.3)
    G = np.arange(1.0, 7.0).reshape(2, 3)
    cots = [unthunk(c) for c in pullback(G)]
    for k, value in ((1, a), (2, b)):
        def weighted(v, k=k):
            args = [x, a, b, -0.1, 1.3]
            args[k] = v
            return np.sum(G * fn(*args))
        assert np.shape(cots[k]) == np.shape(value)
        assert_close(cots[k], numerical_grad(weighted, (value,), 0), rtol=1e-6, atol=1e-10)


def t_tail_fit(df, x):
    return np.sum(stats.t.logsf(x, df)) + np.sum(stats.t.logcdf(-x, df, scale=1.3))


def gamma_frozen_cdf(a, s, x):
    d = stats.gamma(a, scale=s)
    return np.sum(d.cdf(x)) + np.sum(d.logpdf(x))


def beta_censored(a, b, x):
    return np.sum(stats.beta(a, b).logsf(x)) - stats.beta.logcdf(0.4, a * b, b)


def lognorm_interval(s, lo, hi):
    return np.log(stats.lognorm.cdf(hi, s) - stats.lognorm.cdf(lo, s))


X = np.array([0.4, 1.1, 2.6])
PROGRAMS = [(t_tail_fit, (3.5, X), (0, 1)), (gamma_frozen_cdf, (2.5, 1.3, X), (0, 1, 2)),
            (beta_censored, (2.5, 1.7, np.array([0.2, 0.7])), (0, 1, 2)),
            (lognorm_interval, (0.6, 0.5, 2.0), (0, 1, 2))]


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn,args,wrts", PROGRAMS, ids=lambda v: getattr(v, "__name__", ""))
def test_programs_under_every_policy(fn, args, wrts, policy):
    check_grad(fn, list(args), wrt=wrts, policy=policy)


def test_the_frozen_entry_of_a_cdf_shape_is_its_slope():
    x = np.array([0.3, 0.6])

    def f(x, a):
        return np.sum(stats.beta(a, 2.0).cdf(x))
    assert_close(grad(f, wrt=1)(x, 1.5), numerical_grad(f, (x, 1.5), 1), rtol=1e-6)


def test_an_integral_that_does_not_converge_is_refused():
    with pytest.raises(ValueError, match="could not be evaluated accurately"):
        scipy_stats_shapes._integral(lambda t: 1 / t, 0.0, 1.0, 0.5)


def test_an_integral_that_is_not_finite_is_refused():
    with pytest.raises(ValueError, match="not finite"):
        scipy_stats_shapes._integral(lambda t: np.nan, 0.0, 1.0, 0.5)


def test_a_support_moving_at_both_ends_is_refused(monkeypatch):
    monkeypatch.setattr(stats.truncexpon, "support", lambda b: (b - 2.0, b))
    with pytest.raises(ValueError, match="both ends of its support"):
        scipy_stats_shapes.cdf_shape_slope("truncexpon", lambda t, b: (t,), 0.5, (1.3,), 0)


@pytest.mark.parametrize("z,side", [(0.3, "lower"), (2.0, "upper")])
def test_the_side_with_the_smaller_mass_is_integrated(monkeypatch, z, side):
    calls = []
    real = scipy_stats_shapes._integral
    monkeypatch.setattr(scipy_stats_shapes, "_integral",
                        lambda f, a, b, m: calls.append((a, b)) or real(f, a, b, m))
    rule = registry.lookup(stats.gamma.cdf)
    out, pullback = rule.rrule(z, 1.5)
    got = unthunk(pullback(1.0)[1])
    assert calls == [(0.0, z) if side == "lower" else (z, np.inf)]
    assert_close(got, numerical_grad(stats.gamma.cdf, (z, 1.5), 1), rtol=1e-6)


def test_an_exact_zero_is_returned_not_refused():
    # an integrand that vanishes (a region of no mass): the estimate 0 is within 0
    assert scipy_stats_shapes._integral(lambda t: 0.0, 0.0, 1.0, 0.0) == 0.0
