"""Reverse rule for stats_vjp (scipy_stats.py), which generated forward-mode code calls
for the tangent of scipy.stats.<family>.logpdf and .pdf (hvp, hessian, grad of grad of
a likelihood). Registered with the scipy_stats_summaries family (when SciPy imports).

stats_vjp(g, ans, ..., wrt, x, shapes, loc, scale) is g times a slope of logpdf (times
ans for pdf), summed back to `wrt`'s shape. With logpdf = L(z, shapes) - log(scale),
z = (x - loc) / scale, its derivative in any parameter is g times the Hessian of logpdf
(times ans), which three second derivatives per family give: L''(z), dL'/dshape and the
shapes' Hessian (SECOND below):

    d2/dx2 = L''/s^2   d2/dx dscale = -(L' + z L'')/s^2   d2/dscale2 = (1 + 2 z L' + z^2 L'')/s^2
    d2/dx dshape = (dL'/dshape)/s   d2/dscale dshape = -z (dL'/dshape)/s,   d/dloc = -d/dx.

The cdf family (its shape slopes by quadrature) and the families without a row in
SECOND refuse when the rule runs (RuleRefused).
"""
import numpy as np
import scipy.special as sc

from ..complex_safety import RuleRefused
from ..helpers import unbroadcast
from ..registry import LINEAR, SHAPE, ZERO, defvjp, nondiff, template_helper
from .scipy_stats import CONTINUOUS, mvn_dimension, mvn_symmetric, stats_vjp

# multivariate_normal's dimension (read from the parameters' shapes) and its check of a
# symmetric cov in mvn_jvp, which reverse mode differentiates from its source
# (transform/generated_calls.py BY_SOURCE)
nondiff(mvn_dimension, why=SHAPE)
nondiff(mvn_symmetric, why=ZERO)


def _t_mixed(z, df):
    return (-z * (z * z - 1) / (df + z * z) ** 2,)


def _t_hessian(z, df):
    u = df + z * z
    return ((0.25 * (sc.polygamma(1, (df + 1) / 2) - sc.polygamma(1, df / 2)) + 0.5 / df ** 2
             + 0.5 * z * z / (df * u) - z * z * (df * df + 2 * df + z * z) / (2 * df * df * u * u),),)


def _beta_hessian(z, a, b):
    both = sc.polygamma(1, a + b)
    return ((both - sc.polygamma(1, a), both), (both, both - sc.polygamma(1, b)))


# family: (L''(z, *shapes), (dL'/dshape_k), ((d2L/dshape_j dshape_k)))
SECOND = {
    "norm": (lambda z: -np.ones_like(z), None, None),
    "laplace": (lambda z: np.zeros_like(z), None, None),
    "logistic": (lambda z: -(1 - np.tanh(z / 2) ** 2) / 2, None, None),
    "cauchy": (lambda z: -2 * (1 - z * z) / (1 + z * z) ** 2, None, None),
    "expon": (lambda z: np.zeros_like(z), None, None),
    "uniform": (lambda z: np.zeros_like(z), None, None),
    "t": (lambda z, df: -(df + 1) * (df - z * z) / (df + z * z) ** 2, _t_mixed, _t_hessian),
    "gamma": (lambda z, a: -(a - 1) / z ** 2, lambda z, a: (1 / z,),
              lambda z, a: ((-sc.polygamma(1, a),),)),
    "beta": (lambda z, a, b: -(a - 1) / z ** 2 - (b - 1) / (1 - z) ** 2,
             lambda z, a, b: (1 / z, -1 / (1 - z)), _beta_hessian),
    "lognorm": (lambda z, s: (1 + (np.log(z) - 1) / (s * s)) / z ** 2,
                lambda z, s: (2 * np.log(z) / (s ** 3 * z),),
                lambda z, s: ((1 / s ** 2 - 3 * np.log(z) ** 2 / s ** 4,),)),
}


def _hessian_entry(family, wrt, by, z, shapes, scale):
    """d2 logpdf / d(wrt) d(by): wrt and by "x", "loc", "scale" or a shape's index."""
    _, _, slope, _ = CONTINUOUS[family]
    second, mixed, hessian = SECOND[family]
    sign = 1
    if wrt == "loc":
        wrt, sign = "x", -sign
    if by == "loc":
        by, sign = "x", -sign
    if isinstance(by, str) and isinstance(wrt, int):
        wrt, by = by, wrt                               # (the Hessian is symmetric)
    if isinstance(wrt, int):
        return sign * hessian(z, *shapes)[wrt][by]
    if isinstance(by, int):
        m = mixed(z, *shapes)[by] / scale
        return sign * (m if wrt == "x" else -z * m)
    l1, l2 = slope(z, *shapes), second(z, *shapes)
    if wrt == by == "x":
        return sign * l2 / scale ** 2
    if wrt == by == "scale":
        return sign * (1 + 2 * z * l1 + z * z * l2) / scale ** 2
    return -sign * (l1 + z * l2) / scale ** 2


def _coefficient(family, wrt, z, shapes, scale):
    """d logpdf / d(wrt), as stats_vjp's coefficient for logpdf."""
    _, _, slope, shape_grads = CONTINUOUS[family]
    if isinstance(wrt, int):
        return shape_grads(z, *shapes)[wrt]
    dz = slope(z, *shapes)
    return {"x": dz / scale, "loc": -dz / scale, "scale": -(z * dz + 1) / scale}[wrt]


def _factor(by, slopes, ans, family, method, wrt, x, shapes, loc, scale):
    """d stats_vjp(...) / d(by) before the sum to wrt's shape, in the broadcast shape."""
    if method not in ("logpdf", "pdf") or family not in SECOND:
        raise RuleRefused(f"the second derivative of scipy.stats.{family}.{method} has no "
                          "rule (logpdf and pdf of norm, laplace, logistic, cauchy, expon, "
                          "uniform, t, gamma, beta and lognorm have one)")
    z = (np.asarray(x, dtype=float) - loc) / scale
    weight = slopes * (ans if method == "pdf" else 1)
    if by == "slopes":
        return _coefficient(family, wrt, z, shapes, scale) * (ans if method == "pdf" else 1)
    if by == "answer":
        return slopes * _coefficient(family, wrt, z, shapes, scale) * (method == "pdf")
    return weight * _hessian_entry(family, wrt, by, z, shapes, scale)


def _target(wrt, x, shapes, loc, scale):
    return {"x": x, "loc": loc, "scale": scale}.get(wrt, shapes[wrt] if isinstance(wrt, int)
                                                   else None)


@template_helper
def stats_vjp_vjp(g, by, slopes, ans, family, method, wrt, x, shapes, loc, scale):
    """The cotangent of `by` (a parameter name, "shapes": a tuple) in stats_vjp(...)."""
    args = (slopes, ans, family, method, wrt, x, shapes, loc, scale)
    if by == "shapes":
        return tuple(_pulled(g, k, args, shapes[k]) for k in range(len(shapes)))
    own = {"slopes": slopes, "answer": ans, "x": x, "loc": loc, "scale": scale}[by]
    return _pulled(g, by, args, own)


def _pulled(g, by, args, own):
    factor = _factor(by, *args)
    full = np.broadcast_shapes(np.shape(factor), np.shape(g))
    return unbroadcast(np.broadcast_to(g, full) * factor, own)


@template_helper
def stats_vjp_jvp(t, by, slopes, ans, family, method, wrt, x, shapes, loc, scale):
    """The tangent of stats_vjp(...) as `by` moves along t (by "shapes": a tuple)."""
    args = (slopes, ans, family, method, wrt, x, shapes, loc, scale)
    target = _target(wrt, x, shapes, loc, scale)
    if by == "shapes":
        terms = [_factor(k, *args) * t[k] for k in range(len(shapes)) if t[k] is not None]
        return unbroadcast(sum(terms), target) if terms else np.zeros_like(stats_vjp(*args))
    return unbroadcast(_factor(by, *args) * t, target)


# (the signature's own names: a template's `g` and `ans` are the cotangent and the output)
_SIGNATURE = ("slopes", "answer", "family", "method", "wrt", "x", "shapes", "loc", "scale")
_OWN = ", ".join(_SIGNATURE)
_PARAMS = ("slopes", "answer", "x", "shapes", "loc", "scale")
defvjp(stats_vjp, ", ".join(_SIGNATURE),
       *[f"stats_vjp_vjp(g, {p!r}, {_OWN})" if p in _PARAMS else None for p in _SIGNATURE],
       jvp=tuple(LINEAR if p == "slopes" else f"stats_vjp_jvp(t_{p}, {p!r}, {_OWN})"
                 if p in _PARAMS else None for p in _SIGNATURE))
