"""Second order through scipy.stats.zscore's JVP term and moment's order (session 39,
secorder2; registered with the scipy_stats_summaries family, when SciPy imports): a
reverse rule for zscore_vjp, and moment_order declared non-differentiable (an integer).

zscore_vjp(g, a) is the gradient in a of <g, zscore(a)>: linear in g and symmetric in it
(its cotangent in g is zscore_vjp itself), and its derivative in a is that scalar's
Hessian, symmetric too, so zscore_vjp_a gives both its cotangent and its tangent in a.
Along each line (n' = n - ddof), d = a - mean(a), s = sqrt(d.d / n'), z = d / s,
u = g - mean(g), Q h = h - z (z.h) / n' and w = Q u / s = zscore_vjp(g); a cotangent G
of w gives a the centred

    -((z.u) Q G + (z.G) Q u) / (n' s^2) - (G.w) z / (n' s).
"""
import numpy as np

from ..registry import LINEAR, ZERO, defvjp, nondiff, template_helper
from .scipy_stats_summaries import _check, _lines, moment_order, zscore_vjp
from .shape_helpers import cot_dtype


@template_helper(pure=True)
def zscore_vjp_a(g, slopes_g, a, axis, ddof, nan_policy):
    """Cotangent of a in zscore_vjp(slopes_g, a, axis, ddof, nan_policy) (module text)."""
    _check(nan_policy)
    slopes = np.broadcast_to(slopes_g, np.shape(a))
    lines, G, back = _lines(a, axis, np.broadcast_to(g, np.shape(a)), True, reduced=False)
    u = _lines(a, axis, slopes, True, reduced=False)[1]
    n = lines.shape[-1] - ddof
    d = lines - np.mean(lines, axis=-1, keepdims=True)
    s = np.sqrt(np.sum(d * d, axis=-1, keepdims=True) / n)
    z = d / s
    u = u - np.mean(u, axis=-1, keepdims=True)

    def dot(p, q):
        return np.sum(p * q, axis=-1, keepdims=True)

    def Q(h):
        return h - z * dot(z, h) / n
    w = Q(u) / s
    inner = -(dot(z, u) * Q(G) + dot(z, G) * Q(u)) / (n * s * s) - dot(G, w) * z / (n * s)
    cot = inner - np.mean(inner, axis=-1, keepdims=True)
    return back(cot).astype(cot_dtype(g, a), copy=False)


nondiff(moment_order, why=ZERO)        # an integer order, checked
defvjp(zscore_vjp, "slopes_g, a, axis, ddof, nan_policy",
       "unbroadcast(zscore_vjp(g, a, axis, ddof, nan_policy), slopes_g)",
       "zscore_vjp_a(g, slopes_g, a, axis, ddof, nan_policy)", None, None, None,
       jvp=(LINEAR, "zscore_vjp_a(t_a, slopes_g, a, axis, ddof, nan_policy)"))
