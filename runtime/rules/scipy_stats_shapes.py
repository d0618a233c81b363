"""The slope of a continuous scipy.stats cdf in a shape parameter (registered families:
scipy_stats.py, scipy_stats_extra.py).

No closed form in general (the incomplete gamma and beta functions in their
parameters), so it is integrated: with p = exp(L) the standard density and the support
[lo, hi] not moving with the shape, d/ds F(z; s) = integral from lo to z of
p(t) dL/ds(t) dt, and since the density integrates to 1 for every s it is also minus
the integral from z to hi: the rule integrates the side holding the smaller mass (a
tail keeps its relative accuracy, which logcdf and logsf need). A bound that moves with
the shape (truncexpon's upper bound b) rules that side out. The integral is adaptive
(scipy.integrate.quad, relative tolerance 1e-11 asked); one whose error estimate
exceeds 1e-8 of the larger of its value and the mass it integrates over (the cdf or
the sf: a slope of log F is then off by 1e-8 at most), or that is not finite, is
refused (ValueError) rather than returned. One quadrature per element (about 300
evaluations of the standard density `_logpdf`, which SciPy's public logpdf wraps with
argument checks 500 times slower on one number): some milliseconds an element.
"""
import numpy as np
from scipy import integrate, stats

RTOL = 1e-11                # asked of the quadrature
ACCEPT = 1e-8               # its own error estimate, relative: above, refused


def _fixed_bounds(dist, shapes, k):
    """(lower bound fixed, upper bound fixed) as shape k moves."""
    moved = list(shapes)
    moved[k] = moved[k] * 1.25 + 0.5
    (lo, hi), (lo2, hi2) = dist.support(*shapes), dist.support(*moved)
    return lo == lo2, hi == hi2


def _integral(integrand, a, b, mass):
    """The integral of `integrand` over [a, b], which holds `mass` of the distribution."""
    value, error, *_ = integrate.quad(integrand, a, b, epsabs=0.0, epsrel=RTOL, limit=200,
                                      full_output=1)
    if not np.isfinite(value):
        raise ValueError("the slope of a scipy.stats cdf in a shape parameter is not finite here")
    if error > ACCEPT * max(abs(value), mass):
        raise ValueError("the slope of a scipy.stats cdf in a shape parameter is an integral "
                         f"that could not be evaluated accurately here ({value!r} +- {error!r})")
    return value


def _one(family, grad_k, z, shapes, k):
    """d/d shapes[k] of the standard cdf of `family` at the number z."""
    dist = getattr(stats, family)
    lo, hi = dist.support(*shapes)
    if family == "vonmises":            # periodic: SciPy's support is the whole line, and
        lo, hi = -np.pi, np.pi          # its cdf adds 1 a period (a constant in the shape)
        z = (z + np.pi) % (2 * np.pi) - np.pi
    if not lo < z < hi:
        return 0.0                                   # the cdf is 0 or 1 there
    low_fixed, high_fixed = _fixed_bounds(dist, shapes, k)
    below, above = dist.cdf(z, *shapes), dist.sf(z, *shapes)
    if not low_fixed and not high_fixed:
        raise ValueError(f"scipy.stats.{family}: both ends of its support move with a shape")
    def integrand(t):
        density = np.exp(dist._logpdf(t, *shapes))  # 0 far out, where the slope may be inf
        return density * grad_k(t, *shapes) if density > 0 else 0.0
    if (below <= 0.5 or not high_fixed) and low_fixed:
        return _integral(integrand, lo, z, below)
    return -_integral(integrand, z, hi, above)


def cdf_shape_slope(family, shape_grads, z, shapes, k):
    """d/d shapes[k] of the standard cdf F(z; *shapes), elementwise over the broadcast
    of z and the shapes (float64)."""
    def grad_k(t, *s):
        return shape_grads(t, *s)[k]
    arrays = np.broadcast_arrays(np.asarray(z, dtype=float),
                                 *[np.asarray(s, dtype=float) for s in shapes])
    out = np.empty(arrays[0].shape)
    for index in np.ndindex(out.shape):
        values = [float(a[index]) for a in arrays]
        out[index] = _one(family, grad_k, values[0], values[1:], k)
    return out
