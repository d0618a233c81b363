"""Template helpers for runtime/rules/quantiles.py: order statistics.

Along the reduced axes (moved last and flattened into lines of n values), a quantile is
s[lo] * (1 - f) + s[hi] * f, with s the sorted line and the virtual index v = q (n - 1)
split into lo = floor(v), hi = min(lo + 1, n - 1) and f = v - lo (method 'linear';
'lower', 'higher', 'nearest' and 'midpoint' only change lo, hi and f). The sort order is
locally constant, so the cotangent of the line goes to the two entries the sort put at
lo and hi, and the cotangent of q is g (s[hi] - s[lo]) (n - 1) (0 for the methods that
jump between entries). The nan-functions count only the values that are not NaN
(NaN sorts last, so the counted values come first).
"""
import numpy as np

from ..complex_safety import RuleRefused
from ..registry import template_helper
from .shape_helpers import cot_dtype

METHODS = ("linear", "lower", "higher", "nearest", "midpoint")


def _lines(a, axis):
    """a with the reduced axes moved last and flattened: (lines, the moved shape, axes)."""
    a = np.asarray(a)
    axes = tuple(range(a.ndim)) if axis is None else tuple(np.atleast_1d(axis))
    axes = tuple(k % a.ndim for k in axes)
    last = tuple(range(a.ndim - len(axes), a.ndim))
    moved = np.moveaxis(a, axes, last)
    count = int(np.prod([a.shape[k] for k in axes], dtype=int))
    return moved.reshape(-1, count), moved.shape, axes, last


def _split(q, count, method):
    """(lo, hi, f) of shape (len(q), lines) from the virtual index q (count - 1)."""
    top = np.maximum(count - 1, 0)
    v = np.asarray(q, dtype=float).reshape(-1, 1) * top
    lo = np.clip(np.floor(v), 0, top)
    frac = v - lo
    if method == "lower":
        frac = np.zeros_like(frac)
    elif method == "higher":
        lo, frac = np.clip(np.ceil(v), 0, top), np.zeros_like(frac)
    elif method == "nearest":
        lo, frac = np.clip(np.around(v), 0, top), np.zeros_like(frac)
    elif method == "midpoint":
        frac = np.where(frac > 0, 0.5, 0.0)
    hi = np.minimum(lo + 1, top)
    return lo.astype(np.intp), hi.astype(np.intp), frac


def _parts(a, q, axis, method, weights, skip_nan):
    if method not in METHODS or weights is not None:
        raise RuleRefused(
            f"the quantile rule covers method= {', '.join(METHODS)} without weights=, "
            f"not method={method!r}" + ("" if weights is None else " with weights="))
    if skip_nan is None:                            # overwrite_input=True reordered `a`
        raise RuleRefused("the quantile rule needs overwrite_input=False: NumPy "
                                  "reorders `a` in place otherwise")
    lines, moved_shape, axes, last = _lines(a, axis)
    order = np.argsort(lines, axis=-1, kind="stable")              # NaN sorts last
    count = np.sum(~np.isnan(lines), axis=-1) if skip_nan else np.full(len(lines), lines.shape[1])
    lo, hi, frac = _split(q, count, method)
    return lines, order, count, lo, hi, frac, (moved_shape, axes, last)


@template_helper(pure=True)
def quantile_vjp(slopes_g, answer, a, q, axis, method, weights, skip_nan):
    """Cotangent of a of np.quantile (q in [0, 1]): g split between the two sorted
    entries the quantile interpolates."""
    lines, order, count, lo, hi, frac, layout = _parts(a, q, axis, method, weights, skip_nan)
    g = np.broadcast_to(np.asarray(slopes_g), np.shape(answer)).reshape(lo.shape)
    g = np.where(count > 0, g, 0)                                  # an all-NaN line: NaN out
    rows = np.broadcast_to(np.arange(len(lines)), lo.shape)
    dtype = cot_dtype(g, a)
    sorted_cot = np.zeros(lines.shape, dtype=dtype)
    np.add.at(sorted_cot, (rows, lo), g * (1 - frac))
    np.add.at(sorted_cot, (rows, hi), g * frac)
    cot = np.empty_like(sorted_cot)
    np.put_along_axis(cot, order, sorted_cot, axis=-1)
    moved_shape, axes, last = layout
    return np.moveaxis(cot.reshape(moved_shape), last, axes)


def _slopes(a, q, axis, method, weights, skip_nan, scale, values=None):
    """(slope of each quantile in q, count, lo, hi, order, lines): (s[hi] - s[lo]) (n - 1)
    / scale per line for method 'linear' (0 for the others), s the line of `values` (a
    when None) in the order that sorts a."""
    lines, order, count, lo, hi, _, _ = _parts(a, np.asarray(q) / scale, axis, method,
                                               weights, skip_nan)
    source = lines if values is None else _lines(values, axis)[0]
    ordered = np.take_along_axis(source, order, axis=-1)
    rows = np.arange(len(lines))
    slope = (ordered[rows, hi] - ordered[rows, lo]) * (count - 1) / scale
    return slope * (method == "linear"), count, lo, hi, order, lines


@template_helper(pure=True)
def quantile_q_vjp(g, ans, a, q, axis, method, weights, skip_nan, scale, values=None):
    """Cotangent of q of np.quantile (scale 1) or np.percentile (scale 100): the slope
    of the interpolation, (s[hi] - s[lo]) (n - 1), for method 'linear'; a step for the
    others (s: the sorted line of a, or of `values` in a's order)."""
    slope, count, lo, _, _, _ = _slopes(a, q, axis, method, weights, skip_nan, scale, values)
    g = np.broadcast_to(np.asarray(g), np.shape(ans)).reshape(lo.shape)
    cot = np.sum(np.where(count > 0, g * slope, 0), axis=-1).reshape(np.shape(q))
    dtype = cot_dtype(g, q)
    return dtype.type(cot) if np.ndim(q) == 0 else cot.astype(dtype)


@template_helper(pure=True)
def quantile_jvp(t, answer, a, q, axis, method, weights, skip_nan):
    """Tangent of np.quantile from a: the tangents of the two sorted entries it
    interpolates, weighed as their values are."""
    lines, order, count, lo, hi, frac, _ = _parts(a, q, axis, method, weights, skip_nan)
    ordered = np.take_along_axis(_lines(t, axis)[0], order, axis=-1)
    rows = np.arange(len(lines))
    out = ordered[rows, lo] * (1 - frac) + ordered[rows, hi] * frac
    out = np.where(count > 0, out, 0).astype(cot_dtype(t, a), copy=False)   # (f: float64)
    return out.reshape(np.shape(answer))


@template_helper(pure=True)
def quantile_q_jvp(t, ans, a, q, axis, method, weights, skip_nan, scale, values=None):
    """Tangent of np.quantile (scale 1) or np.percentile (100) from q: dq times the
    slope of the interpolation (s[hi] - s[lo]) (n - 1) ('linear'; 0 for the others);
    s the sorted line of a, or of `values` in a's order (quantile_jvp's own slope in q)."""
    slope, count, _, _, _, _ = _slopes(a, q, axis, method, weights, skip_nan, scale, values)
    return np.where(count > 0, slope * np.reshape(t, (-1, 1)), 0).reshape(np.shape(ans))


@template_helper(pure=True)
def quantile_q_slope_vjp(g, t, ans, a, q, axis, method, weights, skip_nan, scale, values,
                         part):
    """Cotangent of a (part 'a') or of values ('values') in quantile_q_jvp: the slope is
    linear in the line it reads (values, or a when None; a's sort order is locally
    constant), so g t (n - 1) / scale goes to the entry sorted at hi and leaves the one
    at lo ('linear'; zero for the other methods, and for a when values is given)."""
    slope, count, lo, hi, order, lines = _slopes(a, q, axis, method, weights, skip_nan, scale)
    if part == "a" and values is not None or method != "linear":
        return np.zeros(np.shape(a), dtype=cot_dtype(g, a))
    g = np.broadcast_to(np.asarray(g), np.shape(ans)).reshape(lo.shape)
    w = np.where(count > 0, g * np.reshape(t, (-1, 1)), 0) * (count - 1) / scale
    rows = np.broadcast_to(np.arange(len(lines)), lo.shape)
    sorted_cot = np.zeros(lines.shape, dtype=cot_dtype(w, a))
    np.add.at(sorted_cot, (rows, hi), w)
    np.add.at(sorted_cot, (rows, lo), -w)
    cot = np.empty_like(sorted_cot)
    np.put_along_axis(cot, order, sorted_cot, axis=-1)
    moved_shape, axes, last = _parts(a, np.asarray(q) / scale, axis, method, weights,
                                     skip_nan)[-1]
    return np.moveaxis(cot.reshape(moved_shape), last, axes)


@template_helper(pure=True)
def quantile_q_slope_jvp(t, t_a, ans, a, q, axis, method, weights, skip_nan, scale, values):
    """Tangent of quantile_q_jvp from a: the slope read from t_a in a's order (zero when
    values is given: a's order is locally constant)."""
    if values is not None:
        return np.zeros(np.shape(ans), dtype=cot_dtype(t, a))
    return quantile_q_jvp(t, ans, a, q, axis, method, weights, skip_nan, scale, t_a)
