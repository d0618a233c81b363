"""scipy.stats, continued: frozen distributions, multivariate_normal.pdf, dirichlet and
the discrete cdf family (registered only when SciPy imports).

A frozen distribution `d = stats.norm(mu, s)` is a value whose cotangent is a dict
from parameter name to cotangent ({"loc": ..., "scale": ...}); `d.logpdf(x)` reuses the
rule of `stats.norm.logpdf(x, mu, s)`, and the constructor's rule hands each parameter
its entry. A parameter whose method has no rule (none registered today) holds a
`NoRule` entry, refused (TypeError naming the method) only if that parameter is being
differentiated. multivariate_normal takes a symmetric `cov` (SciPy reads its lower
triangle) and returns a symmetric cotangent, as cholesky and eigh do. dirichlet's x is
a point of the simplex: its cotangent is the ambient gradient (a - 1) / x (x given with
all K entries), or with K - 1 entries the gradient in those, the last being 1 - sum.
Discrete cdf/sf/logcdf/logsf are differentiated in the probability parameter (the count
is a step: zero); d/dmu poisson.cdf(k, mu) = -pmf(k, mu), d/dp binom.cdf(k, n, p) =
-n pmf(k, n - 1, p).
"""
import numpy as np
import scipy.special as sc
from scipy import stats
from scipy.stats._distn_infrastructure import rv_continuous_frozen, rv_discrete_frozen
from scipy.stats._multivariate import dirichlet_frozen, multivariate_normal_frozen

from ..helpers import unbroadcast
from ..registry import DIAGONAL, NONE, defvjp, lookup, template_helper
from .scipy_stats import CONTINUOUS, mvn_full_cov

DISCRETE = {"poisson": ("mu",), "bernoulli": ("p",), "binom": ("n", "p")}


class NoRule:
    """A frozen distribution's cotangent entry for a parameter its method has no rule
    for: harmless unless that parameter is differentiated (see frozen_part)."""

    __array_ufunc__ = None          # array + NoRule is NoRule, not an array of them

    def __init__(self, message):
        self.message = message

    def __add__(self, other):
        return self

    __radd__ = __add__


@template_helper
def frozen_part(g, name):
    """The cotangent of parameter `name` in a frozen distribution's cotangent `g`."""
    part = None if g is None else g.get(name)
    if isinstance(part, NoRule):
        raise TypeError(part.message)
    return part


def _frozen_params(frozen):
    """(generic distribution's name, [(parameter name, value)]) of a frozen one."""
    if isinstance(frozen, multivariate_normal_frozen):
        cov = frozen.cov_object.covariance
        return "multivariate_normal", [("mean", frozen.mean), ("cov", cov)]
    if isinstance(frozen, dirichlet_frozen):
        return "dirichlet", [("alpha", frozen.alpha)]
    name = frozen.dist.name
    if name not in CONTINUOUS and name not in DISCRETE:
        return name, None                         # a family without rules (gumbel_r)
    shapes, loc, *scale = frozen.dist._parse_args(*frozen.args, **frozen.kwds)
    names = CONTINUOUS[name][0] if name in CONTINUOUS else DISCRETE[name]
    values = list(zip(names, shapes)) + [("loc", loc)] + [("scale", s) for s in scale]
    return name, values


@template_helper
def frozen_vjp(g, ans, frozen, method, x, wrt):
    """Cotangent of x (wrt="x") or of the frozen distribution (a dict by parameter
    name) in `frozen.<method>(x)`, from the rule of stats.<name>.<method>."""
    name, params = _frozen_params(frozen)
    rule = lookup(getattr(getattr(stats, name), method))
    if rule is None or rule.kind != "template" or params is None:
        raise TypeError(f"scipy.stats.{name}(...).{method} has no derivative rule")
    values = dict(zip(rule.params, [x] + [v for _, v in params]))
    values = rule.bind((), values)
    if wrt == "x":
        return _part(rule, rule.params[0], g, ans, values, name, method)
    return {p: _part(rule, p, g, ans, values, name, method) for p, _ in params}


@template_helper
def frozen_jvp(t, frozen, method, x, wrt):
    """Tangent of `frozen.<method>(x)` from x (wrt="x") or from the distribution (a
    dict by parameter name), by the forward rule of stats.<name>.<method>."""
    name, params = _frozen_params(frozen)
    rule = lookup(getattr(getattr(stats, name), method))
    if rule is None or not rule.has_jvp or params is None:
        raise TypeError(f"scipy.stats.{name}(...).{method} has no forward rule")
    values = dict(zip(rule.params, [x] + [v for _, v in params]))
    if wrt == "x":
        return rule.frule({rule.params[0]: t}, **values)[1]
    tangents = {p: t.get(p) for p, _ in params}
    if tangents.get("cov") is not None:                 # the user's form of cov, as a matrix
        tangents["cov"] = mvn_full_cov(tangents["cov"], np.shape(values["cov"])[0])
    return rule.frule(tangents, **values)[1]


def _part(rule, param, g, ans, values, name, method):
    if param not in rule.templates and rule.reason(param) != NONE:
        return None                             # a count or a step: zero
    if param not in rule.templates:
        return NoRule(f"scipy.stats.{name}(...).{method} has no derivative rule in "
                      f"`{param}`: it is refused when `{param}` is differentiated")
    return rule.vjp_function(param)(g, ans, **values)


def _register_frozen_methods():
    methods = {rv_continuous_frozen: ("logpdf", "pdf", "cdf", "logcdf", "sf", "logsf"),
               rv_discrete_frozen: ("logpmf", "pmf", "cdf", "logcdf", "sf", "logsf"),
               multivariate_normal_frozen: ("logpdf", "pdf"),
               dirichlet_frozen: ("logpdf", "pdf")}
    for cls, names in methods.items():
        for method in names:
            fn = getattr(cls, method)
            defvjp(fn, "self, x", f"frozen_vjp(g, ans, self, {method!r}, x, 'self')",
                   f"frozen_vjp(g, ans, self, {method!r}, x, 'x')",
                   name=f"scipy.stats.{fn.__qualname__}",     # rv_frozen.cdf: one rule
                   jvp=(f"frozen_jvp(t_self, self, {method!r}, x, 'self')",
                        f"frozen_jvp(t_x, self, {method!r}, x, 'x')"))


def _register_constructors():
    """`stats.norm(loc, scale)` and friends: each parameter takes its dict entry."""
    for name, (shapes, *_) in CONTINUOUS.items():
        _constructor(name, shapes, ["loc", "scale"], "loc=0, scale=1")
    for name, shapes in DISCRETE.items():
        _constructor(name, shapes, ["loc"], "loc=0")
    _constructor("multivariate_normal", (), ["mean", "cov"],
                 "mean=None, cov=1, allow_singular=False, seed=None", extra=2)
    _constructor("dirichlet", ("alpha",), [], "seed=None", extra=1)


def _constructor(name, shapes, keywords, signature, extra=0):
    """A rule for stats.<name>(*shapes, **keywords): shapes come first, positionally."""
    params = list(shapes) + keywords
    full = ", ".join(list(shapes) + [signature])
    templates = [f"unbroadcast(frozen_part(g, {p!r}), {p})" if p == "mean" else
                 "mvn_cov_like(frozen_part(g, 'cov'), cov)" if p == "cov" else
                 f"frozen_part(g, {p!r})" for p in params] + [None] * extra
    defvjp(getattr(stats, name), full, *templates, name=f"scipy.stats.{name}(...)",
           jvp=tuple(f"{{{p!r}: t_{p}}}" for p in params))     # a dict, as the cotangent


@template_helper
def mvn_cov_like(gcov, cov):
    """A full-matrix cov cotangent given back in the user's form of cov: a matrix, a
    diagonal as a vector, or a number times the identity."""
    if gcov is None or np.ndim(cov) == 2:
        return gcov
    return np.diag(gcov).copy() if np.ndim(cov) == 1 else np.trace(gcov)


_register_frozen_methods()
_register_constructors()
defvjp(stats.multivariate_normal.pdf, "x, mean=None, cov=1, allow_singular=False",
       "mvn_vjp(g * ans, 'x', x, mean, cov)", "mvn_vjp(g * ans, 'mean', x, mean, cov)",
       "mvn_vjp(g * ans, 'cov', x, mean, cov)", None, name="scipy.stats.multivariate_normal.pdf",
       jvp=tuple(f"ans * mvn_jvp(t_{p}, ans, {p!r}, x, mean, cov)" for p in ("x", "mean", "cov")))
for _method in ("logpdf", "pdf"):
    defvjp(getattr(stats.dirichlet, _method), "x, alpha",
           f"dirichlet_vjp(g, ans, x, alpha, 'x', {_method!r})",
           f"dirichlet_vjp(g, ans, x, alpha, 'alpha', {_method!r})",
           name=f"scipy.stats.dirichlet.{_method}",
           jvp=(f"np.sum(dirichlet_vjp(np.ones_like(ans), ans, x, alpha, 'x', {_method!r}) "
                "* t_x, 0)",
                f"dirichlet_alpha_jvp(t_alpha, ans, x, alpha, {_method!r})"))


@template_helper
def dirichlet_vjp(g, ans, x, alpha, wrt, method):
    """logpdf = sum (alpha - 1) log x - log B(alpha), x's first axis the components:
    d/dx = (alpha - 1) / x, d/dalpha = log x - psi(alpha) + psi(sum alpha)."""
    g = g * ans if method == "pdf" else g
    x, alpha = np.asarray(x), np.asarray(alpha)
    full = x if len(x) == len(alpha) else np.concatenate([x, [1 - np.sum(x, 0)]])
    column = alpha.reshape((-1,) + (1,) * (full.ndim - 1))
    if wrt == "x":
        slope = (column - 1) / full
        if len(x) < len(alpha):                 # the last entry is 1 - sum of the others
            slope = slope[:-1] - slope[-1:]
        return g * slope
    spread = np.log(full) - (sc.psi(column) - sc.psi(np.sum(alpha)))
    return np.sum(g * spread, axis=tuple(range(1, full.ndim))) if full.ndim > 1 else g * spread


@template_helper
def dirichlet_alpha_jvp(t, ans, x, alpha, method):
    """Per point, (log x - psi(alpha) + psi(sum alpha)) . dalpha (times pdf for pdf)."""
    x, alpha = np.asarray(x), np.asarray(alpha)
    full = x if len(x) == len(alpha) else np.concatenate([x, [1 - np.sum(x, 0)]])
    column = (-1,) + (1,) * (full.ndim - 1)
    spread = np.log(full) - (sc.psi(alpha.reshape(column)) - sc.psi(np.sum(alpha)))
    out = np.sum(spread * np.reshape(t, column), axis=0)
    return out * ans if method == "pdf" else out


@template_helper
def discrete_cdf_vjp(g, ans, family, method, k, params, loc):
    """Cotangent of the probability parameter in a discrete cdf/sf/logcdf/logsf: the
    slope of the cdf is -pmf(k, mu) (poisson), -n pmf(k, n - 1, p) (binom)."""
    k = np.floor(np.asarray(k) - loc)
    if family == "poisson":
        slope = -stats.poisson.pmf(k, *params)
    else:
        n, p = (1, params[0]) if family == "bernoulli" else params
        slope = -n * stats.binom.pmf(k, np.asarray(n) - 1, p)
    slope = slope if method in ("cdf", "logcdf") else -slope
    if method in ("logcdf", "logsf"):
        slope = slope / np.exp(ans)
    return unbroadcast(g * slope, params[-1])


for _family, _names in DISCRETE.items():
    for _method in ("cdf", "logcdf", "sf", "logsf"):
        _packed = f"({', '.join(_names)},)"
        defvjp(getattr(getattr(stats, _family), _method), f"k, {', '.join(_names)}, loc=0",
               None, *[None] * (len(_names) - 1),
               f"discrete_cdf_vjp(g, ans, {_family!r}, {_method!r}, k, {_packed}, loc)", None,
               name=f"scipy.stats.{_family}.{_method}", jvp=DIAGONAL)
