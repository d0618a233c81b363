"""Second order through scipy.stats.zscore's and the summaries' JVP terms (session 39,
secorder2; a SciPy family of its own, registered when scipy.stats imports): reverse
rules for zscore_vjp and summary_vjp (sem, variation, skew, kurtosis, moment, gmean,
hmean), and moment_order declared non-differentiable (an integer).

summary_vjp(g, a) is the gradient in a of <g, stat(a)> too: linear in g (its cotangent
sums G times the slopes over the reduced axes), and its derivative in a is that scalar's
Hessian, symmetric, so its cotangent and its tangent in a are both the derivative of
summary_vjp along G (or t_a). The slopes (_slope) are analytic in a (powers, means,
sqrt, log, exp: no abs, no comparison of values), so that derivative is the complex step
Im(summary_vjp(g, a + i h G)) / h, exact to rounding (no difference is taken).

zscore_vjp(g, a) is the gradient in a of <g, zscore(a)>: linear in g and symmetric in it
(its cotangent in g is zscore_vjp itself), and its derivative in a is that scalar's
Hessian, symmetric too, so zscore_vjp_a gives both its cotangent and its tangent in a.
Along each line (n' = n - ddof), d = a - mean(a), s = sqrt(d.d / n'), z = d / s,
u = g - mean(g), Q h = h - z (z.h) / n' and w = Q u / s = zscore_vjp(g); a cotangent G
of w gives a the centred

    -((z.u) Q G + (z.G) Q u) / (n' s^2) - (G.w) z / (n' s).
"""
import numpy as np

from ..complex_safety import RuleRefused
from ..registry import LINEAR, NONE, ZERO, defvjp, nondiff, template_helper
from .scipy_stats_summaries import (_check, _lines, entropy_vjp, moment_order, summary_vjp,
                                    zscore_vjp)
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


_SUMMARY = "axis, keepdims, nan_policy, kind, ddof, bias, order, weights"


@template_helper(pure=True)
def summary_vjp_a(g, slopes_g, a, axis, keepdims, nan_policy, kind, ddof, bias, order,
                  weights):
    """Derivative of summary_vjp(slopes_g, a, ...) in a along g (module docstring)."""
    a = np.asarray(a)
    along = np.broadcast_to(np.asarray(g), a.shape)
    step = 1e-20 / (np.max(np.abs(along), initial=0.0) or 1.0)
    moved = summary_vjp(slopes_g, a + 1j * step * along, axis, keepdims, nan_policy, kind,
                        ddof, bias, order, weights)
    return (np.imag(moved) / step).astype(cot_dtype(g, a), copy=False)


@template_helper(pure=True)
def summary_vjp_g(g, slopes_g, a, axis, keepdims, nan_policy, kind, ddof, bias, order,
                  weights):
    """Cotangent of slopes_g in summary_vjp: G times the slopes, summed over the axis."""
    slopes = summary_vjp(np.ones(np.shape(slopes_g)), a, axis, keepdims, nan_policy, kind,
                         ddof, bias, order, weights)
    total = np.sum(np.asarray(g) * slopes, axis=axis, keepdims=keepdims)
    return np.reshape(total, np.shape(slopes_g)).astype(cot_dtype(g, slopes_g), copy=False)


defvjp(summary_vjp, "slopes_g, a, axis, keepdims, nan_policy, kind, ddof=None, bias=True, "
       "order=None, weights=None", f"summary_vjp_g(g, slopes_g, a, {_SUMMARY})",
       f"summary_vjp_a(g, slopes_g, a, {_SUMMARY})", None, None, None, None, None, None,
       None, NONE, jvp=(LINEAR, f"summary_vjp_a(t_a, slopes_g, a, {_SUMMARY})"))


# scipy.stats.entropy: entropy_vjp(g, pk, qk, ..., part) is the gradient of <g, entropy>
# in pk (part 0) or qk (part 1), so its cotangent in pk or qk (the slot) for a cotangent
# G is the derivative of the slot's gradient along G placed in `part`'s argument (the
# Hessian's blocks: H_pq^T = H_qp), by the complex step (log and ratios: analytic)
_ENTROPY = "base, axis, nan_policy, keepdims"


@template_helper(pure=True)
def entropy_vjp_moved(g, slopes_g, pk, qk, base, axis, nan_policy, keepdims, part, slot):
    """Derivative of entropy_vjp(slopes_g, ..., slot) along g placed in `part`'s
    argument (pk: 0, qk: 1)."""
    values = [np.asarray(pk) + 0j, None if qk is None else np.asarray(qk) + 0j]  # (the
    # slot's complex dtype keeps entropy_vjp's cast from dropping the imaginary part)
    along = np.broadcast_to(np.asarray(g), values[part].shape)
    step = 1e-20 / (np.max(np.abs(along), initial=0.0) or 1.0)
    values[part] = values[part] + 1j * step * along
    moved = entropy_vjp(slopes_g, *values, base, axis, nan_policy, keepdims, slot)
    return (np.imag(moved) / step).astype(cot_dtype(g, values[slot].real), copy=False)


@template_helper(pure=True)
def entropy_vjp_g(g, slopes_g, pk, qk, base, axis, nan_policy, keepdims, part):
    """Cotangent of slopes_g in entropy_vjp: G times the slopes, summed over the axis."""
    if np.shape((pk, qk)[part]) != np.shape(pk):
        raise RuleRefused("the second derivative of scipy.stats.entropy takes qk shaped "
                          "as pk")
    slopes = entropy_vjp(np.ones(np.shape(slopes_g)), pk, qk, base, axis, nan_policy,
                         keepdims, part)
    total = np.sum(np.asarray(g) * slopes, axis=axis, keepdims=keepdims)
    return np.reshape(total, np.shape(slopes_g)).astype(cot_dtype(g, slopes_g), copy=False)


defvjp(entropy_vjp, f"slopes_g, pk, qk, {_ENTROPY}, part",
       f"entropy_vjp_g(g, slopes_g, pk, qk, {_ENTROPY}, part)",
       f"entropy_vjp_moved(g, slopes_g, pk, qk, {_ENTROPY}, part, 0)",
       f"entropy_vjp_moved(g, slopes_g, pk, qk, {_ENTROPY}, part, 1)", NONE, None, None,
       None, None,
       jvp=(LINEAR, f"entropy_vjp_moved(t_pk, slopes_g, pk, qk, {_ENTROPY}, 0, part)",
            f"entropy_vjp_moved(t_qk, slopes_g, pk, qk, {_ENTROPY}, 1, part)"))
