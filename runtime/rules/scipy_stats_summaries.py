"""scipy.stats summary statistics (registered only when SciPy imports): zscore, sem,
variation, skew, kurtosis, moment, gmean, hmean and entropy, along `axis` (SciPy's
default 0; None flattens), with keepdims.

With n the count along the axis, d = a - mean and m_k = mean(d^k), a central moment's
slope is dm_k/da = k (d^(k-1) - m_(k-1)) / n (m_1 = 0); sem, variation, skew and kurtosis
(bias=False's factors are constants in the data) follow by the chain rule, as do
gmean (exp of the weighted mean log) and hmean. zscore's cotangent is
(g - mean(g) - z sum(g z) / (n - ddof)) / std. entropy normalises pk (and qk): the
cotangent of the normalised p goes back through p = pk / sum(pk). nan_policy other than
'propagate' is refused when the rule runs (RuleRefused: a TransformError at your line); weights= and center=
are not differentiated (a differentiated one is refused).
"""
import numpy as np
from scipy import stats

from ..complex_safety import RuleRefused
from ..registry import LINEAR, NONE, REDUCTION, ZERO, defvjp, nondiff, template_helper
from .shape_helpers import cot_dtype


def _lines(a, axis, g, keepdims, reduced=True):
    """(a with the axis last, g broadcast against it, a function restoring a's layout);
    g is the reduced statistic's cotangent, or one shaped like a (reduced=False)."""
    a = np.asarray(a)
    shape = a.shape
    if axis is None:
        a, axis = a.reshape(1, -1), 1
        g = np.reshape(g, (1, 1) if reduced else (1, -1))
    elif not keepdims:
        g = np.expand_dims(g, axis)
    moved, g = np.moveaxis(a, axis, -1), np.moveaxis(np.asarray(g), axis, -1)
    return moved, g, lambda x: np.moveaxis(x, -1, axis).reshape(shape)


def _check(nan_policy):
    if nan_policy != "propagate":
        raise RuleRefused("the scipy.stats summary rules take nan_policy='propagate' "
                                  f"only, not {nan_policy!r}")


def _moment_slope(d, k):
    """d m_k / da along the last axis (m_1 of the centred data is 0)."""
    n = d.shape[-1]
    previous = np.mean(d ** (k - 1), axis=-1, keepdims=True) if k > 1 else 0
    return k * (d ** (k - 1) - previous) / n


def _slope(kind, a, options):
    """d stat / da along the last axis of `a` (each line's statistic)."""
    n = a.shape[-1]
    if kind in ("gmean", "hmean"):
        w = np.ones_like(a) if options.get("weights") is None else options["weights"]
        total = np.sum(w, axis=-1, keepdims=True)
        if kind == "gmean":
            return np.exp(np.sum(w * np.log(a), axis=-1, keepdims=True) / total) * w / (total * a)
        return (total / np.sum(w / a, axis=-1, keepdims=True)) ** 2 * w / (total * a * a)
    d = a - np.mean(a, axis=-1, keepdims=True)
    m2 = np.mean(d * d, axis=-1, keepdims=True)
    if kind == "moment":
        return _moment_slope(d, options["order"]) if options["order"] > 1 else 0 * a
    if kind in ("sem", "variation"):
        ddof = options["ddof"]
        std = np.sqrt(m2 * n / (n - ddof))
        dstd = d / ((n - ddof) * std)
        if kind == "sem":
            return dstd / np.sqrt(n)
        mean = np.mean(a, axis=-1, keepdims=True)
        return dstd / mean - std / (mean * mean * n)
    k = 3 if kind == "skew" else 4
    mk = np.mean(d ** k, axis=-1, keepdims=True)
    slope = _moment_slope(d, k) / m2 ** (k / 2) - (k / 2) * mk / m2 ** (k / 2 + 1) * \
        _moment_slope(d, 2)
    if options.get("bias", True) or n <= k - 1:      # SciPy corrects only n > 2 (n > 3)
        return slope
    factor = np.sqrt(n * (n - 1)) / (n - 2) if k == 3 else (n + 1) * (n - 1) / ((n - 2) * (n - 3))
    return factor * slope


@template_helper(pure=True)
def summary_vjp(slopes_g, a, axis, keepdims, nan_policy, kind, ddof=None, bias=True,
                order=None, weights=None):
    """Cotangent of a of scipy.stats.<kind>(a, axis=axis, ...) (the options its kind
    takes: ddof, bias, order, weights)."""
    _check(nan_policy)
    lines, g, back = _lines(a, axis, slopes_g, keepdims)
    options = {"ddof": ddof, "bias": bias, "order": order, "weights": weights}
    if weights is not None:                           # gmean, hmean: laid out as a
        options["weights"] = _lines(np.broadcast_to(weights, np.shape(a)), axis, g, True)[0]
    cot = back(g * _slope(kind, lines, options))
    return cot.astype(cot_dtype(g, a), copy=False)


@template_helper(pure=True)
def zscore_vjp(slopes_g, a, axis, ddof, nan_policy):
    """Cotangent of a of scipy.stats.zscore."""
    _check(nan_policy)
    lines, g, back = _lines(a, axis, slopes_g, True, reduced=False)
    n = lines.shape[-1]
    d = lines - np.mean(lines, axis=-1, keepdims=True)
    std = np.sqrt(np.sum(d * d, axis=-1, keepdims=True) / (n - ddof))
    z = d / std
    cot = (g - np.mean(g, axis=-1, keepdims=True)
           - z * np.sum(g * z, axis=-1, keepdims=True) / (n - ddof)) / std
    return back(cot).astype(cot_dtype(g, a), copy=False)


@template_helper(pure=True)
def entropy_vjp(slopes_g, pk, qk, base, axis, nan_policy, keepdims, part):
    """Cotangent of pk (part 0) or qk (part 1) of scipy.stats.entropy."""
    _check(nan_policy)
    if axis is None:
        raise RuleRefused("the entropy rule takes an integer axis")
    target = pk if part == 0 else qk
    p_lines, g, back = _lines(pk, axis, slopes_g, keepdims)
    p = p_lines / np.sum(p_lines, axis=-1, keepdims=True)
    if qk is None:
        slope, total = -np.log(p), np.sum(p_lines, axis=-1, keepdims=True)
        weights = p
    else:
        q_lines = np.moveaxis(np.broadcast_to(np.asarray(qk), np.shape(pk)), axis, -1)
        q = q_lines / np.sum(q_lines, axis=-1, keepdims=True)
        slope, weights = (np.log(p / q), p) if part == 0 else (-p / q, q)
        total = np.sum(p_lines if part == 0 else q_lines, axis=-1, keepdims=True)
    # the weights sum to 1 on each line, so a constant in the slope (the + 1 of
    # d(p log p)/dp) cancels here: it is left out
    cot = (slope - np.sum(slope * weights, axis=-1, keepdims=True)) / total
    if base is not None:
        cot = cot / np.log(base)
    cot = back(g * cot)
    return cot.astype(cot_dtype(g, target), copy=False).reshape(np.shape(target))


_TAIL = "nan_policy='propagate', *, keepdims=False"



# zscore's Jacobian is symmetric (a projection scaled by 1 / std): J t = J^T t
defvjp(stats.zscore, "a, axis=0, ddof=0, nan_policy='propagate'",
       "zscore_vjp(g, a, axis, ddof, nan_policy)", None, None, None,
       jvp="zscore_vjp(t_a, a, axis, ddof, nan_policy)")
defvjp(stats.sem, f"a, axis=0, ddof=1, {_TAIL}",
       "summary_vjp(g, a, axis, keepdims, nan_policy, 'sem', ddof=ddof)", None, None, None, None,
       jvp=REDUCTION)
defvjp(stats.variation, "a, axis=0, nan_policy='propagate', ddof=0, *, keepdims=False",
       "summary_vjp(g, a, axis, keepdims, nan_policy, 'variation', ddof=ddof)",
       None, None, None, None, jvp=REDUCTION)
defvjp(stats.skew, f"a, axis=0, bias=True, {_TAIL}",
       "summary_vjp(g, a, axis, keepdims, nan_policy, 'skew', bias=bias)", None, None, None, None,
       jvp=REDUCTION)
defvjp(stats.kurtosis, f"a, axis=0, fisher=True, bias=True, {_TAIL}",
       "summary_vjp(g, a, axis, keepdims, nan_policy, 'kurtosis', bias=bias)",
       None, None, None, None, None, jvp=REDUCTION)
defvjp(stats.moment, "a, order=1, axis=0, nan_policy='propagate', *, center=None, keepdims=False",
       "summary_vjp(g, a, axis, keepdims, nan_policy, 'moment', order=moment_order(order, "
       "center))", None, None, None,
       jvp=REDUCTION)
for _kind, _star in (("gmean", ""), ("hmean", "*, ")):
    defvjp(getattr(stats, _kind), f"a, axis=0, dtype=None, {_star}weights=None, "
           f"{'' if _star else '*, '}nan_policy='propagate', keepdims=False",
           f"summary_vjp(g, a, axis, keepdims, nan_policy, {_kind!r}, weights=weights)",
           None, None, jvp=REDUCTION)
defvjp(stats.entropy, "pk, qk=None, base=None, axis=0, *, nan_policy='propagate', keepdims=False",
       "entropy_vjp(g, pk, qk, base, axis, nan_policy, keepdims, 0)",
       "entropy_vjp(g, pk, qk, base, axis, nan_policy, keepdims, 1)", NONE, None,  # base: no rule
       jvp=REDUCTION)


@template_helper(pure=True)
def moment_order(order, center):
    """moment's order, when the rule covers the call: one integer, centre the mean."""
    if center is not None or np.ndim(order) != 0:
        raise RuleRefused("the moment rule takes one integer order and center=None")
    return int(order)


# Second order through zscore's, the summaries' and entropy's JVP terms (session 39,
# secorder2): reverse rules for zscore_vjp, summary_vjp (sem, variation, skew, kurtosis,
# moment, gmean, hmean) and entropy_vjp; moment_order is non-differentiable (an integer).
#
# summary_vjp(g, a) is the gradient in a of <g, stat(a)> too: linear in g (its cotangent
# sums G times the slopes over the reduced axes), and its derivative in a is that scalar's
# Hessian, symmetric, so its cotangent and its tangent in a are both the derivative of
# summary_vjp along G (or t_a). The slopes (_slope) are analytic in a (powers, means,
# sqrt, log, exp: no abs, no comparison of values), so that derivative is the complex step
# Im(summary_vjp(g, a + i h G)) / h, exact to rounding (no difference is taken).
#
# zscore_vjp(g, a) is the gradient in a of <g, zscore(a)>: linear in g and symmetric in it
# (its cotangent in g is zscore_vjp itself), and its derivative in a is that scalar's
# Hessian, symmetric too, so zscore_vjp_a gives both its cotangent and its tangent in a.
# Along each line (n' = n - ddof), d = a - mean(a), s = sqrt(d.d / n'), z = d / s,
# u = g - mean(g), Q h = h - z (z.h) / n' and w = Q u / s = zscore_vjp(g); a cotangent G
# of w gives a the centred
#
#     -((z.u) Q G + (z.G) Q u) / (n' s^2) - (G.w) z / (n' s).


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


# stats_vjp's reverse rule (hvp, grad of grad of a likelihood) registers with this family
from . import scipy_stats_second  # noqa: E402,F401
