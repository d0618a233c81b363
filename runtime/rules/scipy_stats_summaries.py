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
from ..registry import NONE, REDUCTION, defvjp, template_helper
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

# stats_vjp's reverse rule (hvp, grad of grad of a likelihood) registers with this family
from . import scipy_stats_second  # noqa: E402,F401
