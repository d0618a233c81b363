"""Frozen scipy.stats distributions against central differences: every family and method
through the constructor's rule and the frozen method's rule (composed as compiled code
composes them), and user programs that build a frozen distribution positionally, by
keyword, and use it twice."""
import numpy as np
import pytest

from tests.gradcheck import POLICIES

stats = pytest.importorskip("scipy.stats")

from runtime import registry, unthunk  # noqa: E402
from tests.fd import assert_close, numerical_grad  # noqa: E402
from transform import grad  # noqa: E402
from tests.rules.test_scipy_stats import POINTS, METHODS  # noqa: E402

DISCRETE = {"poisson": (3, (2.2,)), "bernoulli": (0, (0.3,)), "binom": (4, (10, 0.35))}
DISCRETE_METHODS = ("logpmf", "pmf", "cdf", "logcdf", "sf", "logsf")


def through_rules(family, method, x, params, g=1.0):
    """(value, cotangent of x, cotangents of params) composing the two rules."""
    make = registry.lookup(getattr(stats, family))
    frozen, constructor_pullback = make.rrule(*params)
    fn = getattr(type(frozen), method)
    out, method_pullback = registry.lookup(fn).rrule(frozen, x)
    g_frozen, g_x = (unthunk(c) for c in method_pullback(g))
    return out, g_x, list(constructor_pullback(g_frozen))      # forced by the caller


def continuous_cases():
    for family, (x, shapes) in POINTS.items():
        for method in METHODS:
            yield family, method


@pytest.mark.parametrize("family,method", list(continuous_cases()))
def test_frozen_continuous(family, method):
    x, shapes = POINTS[family]
    params = shapes + (0.3, 1.9)

    def f(x, *params):
        return getattr(getattr(stats, family)(*params), method)(x)
    out, g_x, g_params = through_rules(family, method, x, params)
    assert out == pytest.approx(f(x, *params))
    assert_close(g_x, numerical_grad(f, (x,) + params, 0), rtol=1e-5)
    for k, cot in enumerate(g_params):        # the cdf family's shapes: by quadrature
        assert_close(unthunk(cot), numerical_grad(f, (x,) + params, k + 1), rtol=1e-5)


@pytest.mark.parametrize("family", DISCRETE)
@pytest.mark.parametrize("method", DISCRETE_METHODS)
def test_frozen_discrete_in_the_probability(family, method):
    k, shapes = DISCRETE[family]

    def f(p):
        return getattr(getattr(stats, family)(*shapes[:-1], p), method)(k)
    out, g_k, g_params = through_rules(family, method, k, shapes)
    assert out == pytest.approx(f(shapes[-1]))
    assert g_k is None or np.all(g_k == 0)
    assert_close(unthunk(g_params[len(shapes) - 1]), numerical_grad(f, (shapes[-1],), 0), rtol=1e-5)


@pytest.mark.parametrize("family", DISCRETE)
@pytest.mark.parametrize("method", ("cdf", "logcdf", "sf", "logsf"))
@pytest.mark.parametrize("k", [-1, 0, 2, 3.5, 10, 12])
def test_discrete_cdf_family_generic(family, method, k):
    _, shapes = DISCRETE[family]
    fn = getattr(getattr(stats, family), method)
    args = (k,) + shapes
    out, pullback = registry.lookup(fn).rrule(*args)
    expected = numerical_grad(lambda p: fn(k, *shapes[:-1], p), (shapes[-1],), 0)
    got = unthunk(pullback(1.0)[len(args) - 1])
    if np.isfinite(out):
        assert_close(got, expected, rtol=1e-5, atol=1e-9)


def test_discrete_cdf_broadcasts_in_the_probability():
    ks, mus = np.array([[0, 1, 4]]), np.array([[1.5], [2.5]])
    out, pullback = registry.lookup(stats.poisson.cdf).rrule(ks, mus)
    G = np.arange(6.0).reshape(2, 3)
    expected = numerical_grad(lambda m: np.sum(G * stats.poisson.cdf(ks, m)), (mus,), 0)
    assert_close(unthunk(pullback(G)[1]), expected, rtol=1e-6)


def norm_positional(x, mu, s):
    return np.sum(stats.norm(mu, s).logpdf(x))


def norm_keywords(x, mu, s):
    return np.sum(stats.norm(loc=mu, scale=s).cdf(x))


def gamma_scale_keyword(x, a, s):
    return np.sum(stats.gamma(a, scale=s).logpdf(x))


def gamma_all_positional(x, a, s):
    return np.sum(stats.gamma(a, 0.1, s).logsf(x))


def t_shape_keyword(x, df, s):
    return np.sum(stats.t(df=df, scale=s).pdf(x))


def used_twice(x, mu, s):
    d = stats.logistic(mu, s)
    return np.sum(d.logpdf(x)) + np.sum(d.cdf(x * 0.5))


def lognorm_in_a_loop(x, s, scale):
    total = 0.0
    for k in range(3):
        total = total + np.sum(stats.lognorm(s, scale=scale * (k + 1)).logpdf(x))
    return total


def poisson_frozen(mu, lam):
    return np.sum(stats.poisson(mu * lam).logpmf(np.array([1, 3, 0])))


def norm_vector_parameters(x, mu, s):
    return np.sum(stats.norm(mu, s * np.array([1.0, 2.0, 0.5])).logcdf(x))


def binom_frozen(p, q):
    return np.sum(stats.binom(7, p * q).sf(np.array([1, 3])))


X = np.array([0.3, 1.1, 2.4])
PROGRAMS = [(norm_positional, (X, 0.2, 1.5), (0, 1, 2)),
            (norm_keywords, (X, 0.2, 1.5), (0, 1, 2)),
            (gamma_scale_keyword, (X, 2.5, 1.3), (0, 1, 2)),
            (gamma_all_positional, (X, 2.5, 1.3), (0, 2)),
            (t_shape_keyword, (X, 3.5, 1.3), (0, 1, 2)),
            (used_twice, (X, 0.2, 1.5), (0, 1, 2)),
            (lognorm_in_a_loop, (X, 0.6, 1.3), (0, 1, 2)),
            (poisson_frozen, (2.2, 0.9), (0, 1)),
            (binom_frozen, (0.4, 0.8), (0, 1)),
            (norm_vector_parameters, (np.arange(12.0).reshape(4, 3) / 6, np.array([0.1, 0.5, -0.2]),
                                      1.3), (0, 1, 2))]


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn,args,wrts", PROGRAMS, ids=lambda v: getattr(v, "__name__", ""))
def test_user_programs(fn, args, wrts, policy):
    for wrt in wrts:
        assert_close(grad(fn, wrt=wrt, policy=policy)(*args), numerical_grad(fn, args, wrt),
                     rtol=1e-5, atol=1e-8)


def beta_cdf_in_a(x, a):
    return np.sum(stats.beta(a, 2.0).cdf(x))


@pytest.fixture
def beta_cdf_without_shape_rules():
    """beta.cdf re-registered with no rule in a and b (as before the quadrature rules): a
    frozen entry for a parameter without a rule is then a NoRule, refused when used."""
    fn, saved = stats.beta.cdf, registry.lookup(stats.beta.cdf)
    registry.defvjp(fn, "x, a, b, loc=0, scale=1", saved.templates["x"], registry.NONE,
                    registry.NONE, saved.templates["loc"], saved.templates["scale"],
                    name=saved.name)
    yield
    registry._RULES[fn] = saved
    registry._registered()


@pytest.mark.usefixtures("beta_cdf_without_shape_rules")
def test_a_shape_without_a_rule_is_refused_by_name():
    with pytest.raises(TypeError, match=r"beta\(\.\.\.\)\.cdf has no derivative rule in `a`"):
        grad(beta_cdf_in_a, wrt=1)(np.array([0.3, 0.6]), 1.5)


@pytest.mark.usefixtures("beta_cdf_without_shape_rules")
def test_the_point_of_a_cdf_with_a_constant_shape_is_fine():
    x = np.array([0.3, 0.6])
    assert_close(grad(beta_cdf_in_a)(x, 1.5), numerical_grad(beta_cdf_in_a, (x, 1.5), 0))


def test_a_cdf_shape_is_differentiated_by_its_rule():
    x = np.array([0.3, 0.6])
    assert_close(grad(beta_cdf_in_a, wrt=1)(x, 1.5), numerical_grad(beta_cdf_in_a, (x, 1.5), 1),
                 rtol=1e-6)


def beta_pdf_and_cdf(x, a):
    d = stats.beta(a, 2.0)
    return np.sum(d.logpdf(x)) + np.sum(d.cdf(x))


@pytest.mark.usefixtures("beta_cdf_without_shape_rules")
@pytest.mark.parametrize("policy", POLICIES)
def test_a_shape_with_a_rule_in_one_method_only_is_still_refused(policy):
    # logpdf's entry for `a` plus cdf's NoRule must stay a refusal, whichever comes first
    with pytest.raises(TypeError, match="no derivative rule in `a`"):
        grad(beta_pdf_and_cdf, wrt=1, policy=policy)(np.array([0.3, 0.6]), 1.5)


@pytest.mark.parametrize("policy", POLICIES)
def test_a_shape_in_logpdf_and_cdf(policy):
    x = np.array([0.3, 0.6])
    assert_close(grad(beta_pdf_and_cdf, wrt=1, policy=policy)(x, 1.5),
                 numerical_grad(beta_pdf_and_cdf, (x, 1.5), 1), rtol=1e-6)


def test_no_rule_entries_absorb_arrays_from_either_side():
    from runtime.rules.scipy_stats_more import NoRule
    entry = NoRule("why")
    assert np.ones(3) + entry is entry and entry + np.ones(3) is entry and 1.0 + entry is entry
