"""Forward-mode terms of scipy.stats' frozen distributions (runtime/rules/scipy_stats_more.py,
docs/forward.md): a frozen distribution's tangent is a dict by parameter, as its cotangent
is. Every constructor, and the frozen methods of every family with a point in
tests/rules/test_scipy_stats.py (and the discrete ones, multivariate_normal, dirichlet),
against central differences in the parameters, and <v, J t> == <J^T v, t> against the
cotangent templates (tests/rules/test_jvp_rules.py does the same for the other rules)."""
import numpy as np
import pytest

from tests.fd import assert_close, numerical_jvp
from tests.rules.checks import random_like, spd

stats = pytest.importorskip("scipy.stats")

from runtime import registry, unthunk  # noqa: E402
from runtime.rules.scipy_stats_more import _frozen_params  # noqa: E402
from tests.rules.test_scipy_stats import POINTS  # noqa: E402

registry._load_pending()
CONSTRUCTORS = sorted((r for r in registry._RULES.values() if r.name.endswith("(...)")),
                      key=lambda r: r.name)
MVN = (np.array([[0.3, -0.2, 0.5], [1.1, 0.4, -0.7]]), (np.array([0.1, 0.2, -0.3]), spd(3, 2)))
CASES = {**{name: (x, shapes + (0.3, 1.9)) for name, (x, shapes) in POINTS.items()},
         "poisson": (3, (2.2,)), "bernoulli": (0, (0.3,)), "binom": (4, (10, 0.35)),
         "multivariate_normal": MVN,
         "dirichlet": (np.array([0.2, 0.3, 0.5]), (np.array([1.5, 2.0, 3.0]),))}
METHODS = {"multivariate_normal": ("logpdf", "pdf"), "dirichlet": ("logpdf", "pdf"),
           "poisson": ("logpmf", "pmf", "cdf", "logcdf", "sf", "logsf")}


def _params(frozen):
    """{parameter: value} of a frozen distribution, as its tangents and cotangents are."""
    return dict(_frozen_params(frozen)[1])


def _tangents(params, seed):
    """Random tangents of the continuous parameters (a count holds none), cov symmetric."""
    out = {}
    for k, (p, value) in enumerate(params.items()):
        t = random_like(np.asarray(value, dtype=float), seed + k)
        out[p] = (t + t.T) / 2 if p == "cov" else t
    return out


def _pairing(a, b):
    return sum(float(np.sum(np.asarray(a[p]) * np.asarray(b[p]))) for p in a
               if a[p] is not None and b.get(p) is not None)


@pytest.mark.parametrize("rule", CONSTRUCTORS, ids=lambda r: r.name)
def test_a_constructor_hands_each_parameter_its_tangent(rule):
    values = {p: 1.5 + 0.25 * k for k, p in enumerate(rule.templates)}
    if rule.name == "scipy.stats.multivariate_normal(...)":
        values = dict(zip(("mean", "cov"), MVN[1]))
    elif rule.name == "scipy.stats.dirichlet(...)":
        values = {"alpha": CASES["dirichlet"][1][0]}
    t = _tangents(values, 3)
    ans, tangent = rule.frule(t, **values)
    for p in values:
        want = numerical_jvp(lambda v: _params(rule.fn(**{**values, p: v}))[p], [values[p]],
                             0, t[p])
        assert_close(tangent[p], want, rtol=1e-6)
    v, own = _tangents(_params(ans), 5), rule.bind((), values)
    reverse = sum(float(np.sum(unthunk(rule.vjp_function(p)(v, ans, **own)) * t[p]))
                  for p in values)
    assert _pairing(v, tangent) == pytest.approx(reverse, rel=1e-9)


def _method_cases():
    for family, (x, params) in CASES.items():
        for method in METHODS.get(family, ("logpdf", "pdf", "cdf", "logcdf", "sf", "logsf")):
            if family in ("bernoulli", "binom") and method not in ("cdf", "sf"):
                continue
            yield family, method


@pytest.mark.parametrize("family, method", list(_method_cases()))
def test_a_frozen_method_against_its_parameters_and_point(family, method):
    x, params = CASES[family]
    frozen = getattr(stats, family)(*params)
    rule = registry.lookup(getattr(type(frozen), method))
    generic = registry.lookup(getattr(getattr(stats, family), method))
    values = {p: v for p, v in _params(frozen).items() if p in generic.params}
    t = {p: tv for p, tv in _tangents(values, 7).items() if p in generic.templates}
    ans, tangent = rule.frule({"self": t}, frozen, x)
    keys = list(t)

    def moved(step):
        return getattr(getattr(stats, family)(**{**values, **{p: np.asarray(values[p], float)
                       + step * t[p] for p in keys}}), method)(x)
    assert_close(tangent, numerical_jvp(moved, [0.0], 0, 1.0), rtol=1e-5, atol=1e-8)
    v = random_like(np.asarray(ans, dtype=float), 11)
    cot = unthunk(rule.vjp_function("self")(v, ans, self=frozen, x=x))
    assert float(np.sum(v * tangent)) == pytest.approx(_pairing(t, cot), rel=1e-8, abs=1e-12)
    if np.asarray(x).dtype.kind == "f" or isinstance(x, float):
        tx = random_like(np.asarray(x, dtype=float), 13)
        tx = tx - np.mean(tx) if family == "dirichlet" else tx    # along the simplex
        _, tangent = rule.frule({"x": tx}, frozen, x)
        assert_close(tangent, numerical_jvp(lambda y: getattr(frozen, method)(y), [x], 0, tx),
                     rtol=1e-5, atol=1e-8)


def _two_parameters(mu, s):
    return stats.norm(mu, 1.5 + np.tanh(s)).logpdf(0.3) + stats.norm(mu * s).pdf(0.1)


def test_compiled_jvp_of_a_distribution_built_from_two_differentiated_values():
    """Both parameters' terms ({'loc': ...} and {'scale': ...}) added by parameter, not
    with `+` (a TypeError for two dicts: fuzz forward_mode:34072), and the frozen method
    (`.logpdf`, resolved when the code runs) taken through its rule, not refused."""
    from transform import jvp
    args, tangents = (0.4, -0.2), (0.7, -1.3)
    value, tangent = jvp(_two_parameters, args, tangents)
    assert value == pytest.approx(_two_parameters(*args), rel=1e-12)
    want = numerical_jvp(_two_parameters, args, 0, tangents[0]) + \
        numerical_jvp(_two_parameters, args, 1, tangents[1])
    assert_close(tangent, want, rtol=1e-6)
