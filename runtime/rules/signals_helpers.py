"""Template helpers for runtime/rules/signals.py: interp, convolve and correlate,
trapezoid and gradient."""
import numpy as np

from ..complex_safety import ComplexRefused, RuleRefused
from ..registry import template_helper
from .shape_helpers import cot_dtype, sum_to_shape


def _real_only(name, *values):
    if any(np.iscomplexobj(v) for v in values):
        raise ComplexRefused(f"{name}'s rule takes real values only; a complex value "
                             "reaches it here. Instead: apply it to the real and imaginary "
                             "parts separately (it is linear in each)")


# ---- np.interp -------------------------------------------------------------------------
def _segment(x, xp):
    """Index j of the segment [xp[j], xp[j+1]] holding each x, closed on the left (so a
    knot belongs to the segment on its right), and where x is inside [xp[0], xp[-1])."""
    j = np.searchsorted(xp, x, side="right") - 1
    inside = (j >= 0) & (j < len(xp) - 1)
    return np.clip(j, 0, max(len(xp) - 2, 0)), inside


def _checked(xp, period):
    if period is not None:
        raise RuleRefused("np.interp's rule has no period= (periodic interpolation)")
    xp = np.asarray(xp)
    if xp.ndim != 1 or len(xp) < 2 or np.any(np.diff(xp) <= 0):
        raise RuleRefused("np.interp's rule needs xp strictly increasing, "
                                  "with at least two knots")
    return xp


@template_helper(pure=True)
def interp_x_vjp(slopes_g, x, xp, fp, period):
    """Cotangent of x: g times the slope of the segment x lies in. At a knot the slope
    is the right-hand one (the segment starting there); at and beyond the last knot,
    and before the first, np.interp is constant, so the slope is 0."""
    _real_only("np.interp", fp)
    xp = _checked(xp, period)
    j, inside = _segment(x, xp)
    slope = np.diff(np.asarray(fp)) / np.diff(xp)
    cot = np.where(inside, slopes_g * slope[j], 0)
    dtype = cot_dtype(slopes_g, x)
    return cot.astype(dtype) if np.ndim(cot) else dtype.type(cot)


@template_helper(pure=True)
def interp_fp_vjp(g, x, xp, fp, left, right, period):
    """Cotangent of fp: np.interp is linear in fp, each x weighing the two knots of its
    segment by 1 - t and t; beyond the ends it reads fp[0] or fp[-1] unless left= or
    right= replace them; x equal to the last knot reads fp[-1] exactly."""
    xp = _checked(xp, period)
    x, g = np.broadcast_arrays(np.asarray(x, dtype=float), g)
    j, inside = _segment(x, xp)
    t = np.where(inside, (x - xp[j]) / (xp[j + 1] - xp[j]), 0)
    cot = np.zeros(len(xp), dtype=np.result_type(g, 1.0))
    np.add.at(cot, j[inside], (g * (1 - t))[inside])
    np.add.at(cot, j[inside] + 1, (g * t)[inside])
    cot[0] += np.sum(g[x < xp[0]]) if left is None else 0
    cot[-1] += np.sum(g[x >= xp[-1]]) if right is None else np.sum(g[x == xp[-1]])
    return cot.astype(cot_dtype(g, fp))


@template_helper(pure=True)
def interp_end_vjp(g, x, xp, side):
    """Cotangent of left= (side -1) or right= (side 1): the cotangents of the x outside
    that end of the knots (x exactly at the last knot reads fp[-1], not right=)."""
    x, g = np.broadcast_arrays(np.asarray(x), g)
    beyond = x < xp[0] if side < 0 else x > xp[-1]
    return np.sum(g[beyond])


# ---- np.convolve and np.correlate -----------------------------------------------------
def _offset(mode, m, n, correlate):
    """Where np.convolve/np.correlate(a, v, mode) starts inside the 'full' output
    (checked against NumPy for every length pair in tests/rules/test_signals.py)."""
    short = min(m, n)
    if mode in ("full", 2):
        return 0
    if mode in ("valid", 0):
        return short - 1
    # 'same': NumPy's correlate swaps its arguments when v is longer, moving the window
    return short // 2 if correlate and m < n else (short - 1) // 2


def _full_cotangent(g, mode, a, v, correlate):
    full = np.zeros(len(a) + len(v) - 1, dtype=np.result_type(g, a, v, 1.0))
    start = _offset(mode, len(a), len(v), correlate)
    full[start:start + len(g)] = g
    return full


@template_helper(pure=True)
def convolve_vjp(g, a, v, mode, operand, correlate=False):
    """Cotangent of `a` (operand 0) or `v` (operand 1) of np.convolve(a, v, mode), or of
    np.correlate (correlate=True, which is a convolution with v reversed): the output
    is a window of the full convolution, whose adjoint is a 'valid' correlation."""
    _real_only("np.convolve" if not correlate else "np.correlate", a, v)
    shape = np.shape((a, v)[operand])            # NumPy takes a number as one entry
    a, v = np.atleast_1d(a), np.atleast_1d(v)
    full = _full_cotangent(np.asarray(g), mode, a, v, correlate)
    kernel = v[::-1] if correlate else v
    if operand == 0:
        cot = np.correlate(full, kernel, "valid")
    else:
        cot = np.correlate(full, a, "valid")
        cot = cot[::-1] if correlate else cot
    return cot.astype(cot_dtype(g, (a, v)[operand])).reshape(shape)


# ---- np.trapezoid ----------------------------------------------------------------------
def _along(x, axis, part):
    """x[..., :-1] (part 0) or x[..., 1:] (part 1) along `axis`."""
    index = [slice(None)] * np.ndim(x)
    index[axis] = slice(None, -1) if part == 0 else slice(1, None)
    return x[tuple(index)]


def _widths(y, x, dx, axis):
    """The interval widths np.trapezoid multiplies by, shaped as NumPy broadcasts them."""
    if x is None:
        return dx
    x = np.asarray(x)
    if x.ndim == 1:
        shape = [1] * np.ndim(y)
        shape[axis] = len(x) - 1
        return np.diff(x).reshape(shape)
    return np.diff(x, axis=axis)


def _spread(cot, axis, sign):
    """The adjoint of taking differences (sign -1) or pair sums (sign 1) along axis."""
    pad = [(0, 0)] * cot.ndim
    before, after = list(pad), list(pad)
    before[axis], after[axis] = (1, 0), (0, 1)
    return np.pad(cot, before) + sign * np.pad(cot, after)


@template_helper(pure=True)
def trapezoid_vjp(g, y, x, dx, axis, operand):
    """Cotangent of y, x or dx (operand 0, 1, 2) of np.trapezoid: the integral is
    sum(d * (y[:-1] + y[1:]) / 2) with d = diff(x) or dx."""
    y = np.asarray(y)
    axis = axis % y.ndim
    d = _widths(y, x, dx, axis)
    g = np.expand_dims(np.asarray(g), axis)
    if operand == 0:
        pairs = _along(y, axis, 0).shape
        half = g * d / 2
        half = np.broadcast_to(half, np.broadcast_shapes(half.shape, pairs))
        return sum_to_shape(_spread(half, axis, 1), y.shape).astype(cot_dtype(g, y))
    per_width = g * (_along(y, axis, 0) + _along(y, axis, 1)) / 2
    if operand == 2:
        return sum_to_shape(per_width, np.shape(dx)).astype(cot_dtype(g, dx))[()]
    x = np.asarray(x)
    if x.ndim == 1:
        per_width = np.moveaxis(sum_to_shape(per_width, np.shape(d)), axis, -1).reshape(-1)
        return _spread(per_width, 0, -1).astype(cot_dtype(g, x))
    return sum_to_shape(_spread(per_width, axis, -1), x.shape).astype(cot_dtype(g, x))
