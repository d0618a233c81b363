"""scipy.stats, more continuous location-scale families (registered only when SciPy
imports): halfnorm, rayleigh, maxwell, gumbel_r, gumbel_l, halfcauchy, halflogistic,
chi2, chi, weibull_min, weibull_max, pareto, lomax, invgamma, invgauss, skewnorm,
vonmises, gennorm, nakagami, loggamma, gompertz, fisk, betaprime, powerlaw, genlogistic,
dweibull, dgamma, bradford, powernorm, truncexpon, wald, levy, levy_l, semicircular,
cosine, anglit, arcsine, hypsecant, moyal and gibrat.

Each is given as scipy_stats.py gives its families: L(z, shapes) = logpdf of the
standard form, its slope in z and its derivatives in the shape parameters. The six
methods (logpdf, pdf, cdf, logcdf, sf, logsf) and the frozen form (`stats.chi2(df,
loc, scale).logpdf(x)`) then follow from scipy_stats.py's and scipy_stats_more.py's
rules; the cdf family in the shape parameters by quadrature (scipy_stats_shapes.py).
"""
import math

import numpy as np
import scipy.special as sc
from scipy import stats

from .scipy_stats import CONTINUOUS, _register_continuous
from .scipy_stats_more import _constructor

LOG_2 = math.log(2)


def _logpdf(family):
    """L(z, *shapes): SciPy's own standard logpdf."""
    return getattr(stats, family).logpdf


def _mills(u):
    """phi(u) / Phi(u), from logs (no overflow in the left tail)."""
    return np.exp(-0.5 * u * u - 0.5 * math.log(2 * math.pi) - sc.log_ndtr(u))


def _weibull_shape(u, c):
    return (1 / c + np.log(u) - u ** c * np.log(u),)


MORE = {
    "halfnorm": ((), lambda z: -z, None),
    "rayleigh": ((), lambda z: 1 / z - z, None),
    "maxwell": ((), lambda z: 2 / z - z, None),
    "gumbel_r": ((), lambda z: np.expm1(-z), None),
    "gumbel_l": ((), lambda z: -np.expm1(z), None),
    "halfcauchy": ((), lambda z: -2 * z / (1 + z * z), None),
    "halflogistic": ((), lambda z: -np.tanh(z / 2), None),
    "chi2": (("df",), lambda z, df: (df / 2 - 1) / z - 0.5,
             lambda z, df: (0.5 * (np.log(z) - LOG_2 - sc.psi(df / 2)),)),
    "chi": (("df",), lambda z, df: (df - 1) / z - z,
            lambda z, df: (np.log(z) - 0.5 * LOG_2 - 0.5 * sc.psi(df / 2),)),
    "weibull_min": (("c",), lambda z, c: (c - 1) / z - c * z ** (c - 1),
                    lambda z, c: _weibull_shape(z, c)),
    "weibull_max": (("c",), lambda z, c: (c - 1) / z + c * (-z) ** (c - 1),
                    lambda z, c: _weibull_shape(-z, c)),
    "pareto": (("b",), lambda z, b: -(b + 1) / z, lambda z, b: (1 / b - np.log(z),)),
    "lomax": (("c",), lambda z, c: -(c + 1) / (1 + z), lambda z, c: (1 / c - np.log1p(z),)),
    "invgamma": (("a",), lambda z, a: -(a + 1) / z + 1 / (z * z),
                 lambda z, a: (-np.log(z) - sc.psi(a),)),
    "invgauss": (("mu",), lambda z, mu: -1.5 / z - (1 - mu * mu / (z * z)) / (2 * mu * mu),
                 lambda z, mu: (z / mu ** 3 - 1 / (mu * mu),)),
    "skewnorm": (("a",), lambda z, a: -z + a * _mills(a * z), lambda z, a: (z * _mills(a * z),)),
    "vonmises": (("kappa",), lambda z, kappa: -kappa * np.sin(z),
                 lambda z, kappa: (np.cos(z) - sc.i1e(kappa) / sc.i0e(kappa),)),
    "gennorm": (("beta",), lambda z, beta: -beta * np.abs(z) ** (beta - 1) * np.sign(z),
                lambda z, beta: (1 / beta + sc.psi(1 / beta) / (beta * beta)
                                 - np.abs(z) ** beta * np.log(np.abs(z)),)),
    # shape parameters with a closed-form slope of L
    "nakagami": (("nu",), lambda z, nu: (2 * nu - 1) / z - 2 * nu * z,
                 lambda z, nu: (np.log(nu) + 1 - sc.psi(nu) + 2 * np.log(z) - z * z,)),
    "loggamma": (("c",), lambda z, c: c - np.exp(z), lambda z, c: (z - sc.psi(c),)),
    "gompertz": (("c",), lambda z, c: 1 - c * np.exp(z), lambda z, c: (1 / c - np.expm1(z),)),
    "fisk": (("c",), lambda z, c: (c - 1) / z - 2 * c * z ** (c - 1) / (1 + z ** c),
             lambda z, c: (1 / c + np.log(z) - 2 * z ** c * np.log(z) / (1 + z ** c),)),
    "betaprime": (("a", "b"), lambda z, a, b: (a - 1) / z - (a + b) / (1 + z),
                  lambda z, a, b: (np.log(z) - np.log1p(z) - sc.psi(a) + sc.psi(a + b),
                                   -np.log1p(z) - sc.psi(b) + sc.psi(a + b))),
    "powerlaw": (("a",), lambda z, a: (a - 1) / z, lambda z, a: (1 / a + np.log(z),)),
    "genlogistic": (("c",), lambda z, c: -1 + (c + 1) * sc.expit(-z),
                    lambda z, c: (1 / c - np.log1p(np.exp(-z)),)),
    "dweibull": (("c",), lambda z, c: np.sign(z) * ((c - 1) / np.abs(z) - c * np.abs(z) ** (c - 1)),
                 lambda z, c: _weibull_shape(np.abs(z), c)),
    "dgamma": (("a",), lambda z, a: np.sign(z) * ((a - 1) / np.abs(z) - 1),
               lambda z, a: (np.log(np.abs(z)) - sc.psi(a),)),
    "bradford": (("c",), lambda z, c: -c / (1 + c * z),
                 lambda z, c: (1 / c - 1 / ((1 + c) * np.log1p(c)) - z / (1 + c * z),)),
    "powernorm": (("c",), lambda z, c: -z - (c - 1) * _mills(-z),
                  lambda z, c: (1 / c + sc.log_ndtr(-z),)),
    "truncexpon": (("b",), lambda z, b: -np.ones_like(z), lambda z, b: (-1 / np.expm1(b),)),
    # no shape parameters
    "wald": ((), lambda z: -1.5 / z - (1 - 1 / (z * z)) / 2, None),
    "levy": ((), lambda z: -1.5 / z + 1 / (2 * z * z), None),
    "levy_l": ((), lambda z: -1.5 / z - 1 / (2 * z * z), None),
    "semicircular": ((), lambda z: -z / (1 - z * z), None),
    "cosine": ((), lambda z: -np.sin(z) / (1 + np.cos(z)), None),
    "anglit": ((), lambda z: -2 * np.tan(2 * z), None),
    "arcsine": ((), lambda z: -0.5 / z + 0.5 / (1 - z), None),
    "hypsecant": ((), lambda z: -np.tanh(z), None),
    "moyal": ((), lambda z: 0.5 * np.expm1(-z), None),
    "gibrat": ((), lambda z: -(1 + np.log(z)) / z, None),
}

for _family, (_names, _slope, _shape_grads) in MORE.items():
    CONTINUOUS[_family] = (_names, _logpdf(_family), _slope, _shape_grads)
    _register_continuous(_family, _names, _shape_grads is not None)
    _constructor(_family, _names, ["loc", "scale"], "loc=0, scale=1")
