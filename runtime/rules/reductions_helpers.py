"""Template helpers for reductions and scans whose cotangent is more than a broadcast."""
import numpy as np

from ..registry import template_helper
from .shape_helpers import as_cotangent, cot_dtype


def _axes(axis, ndim):
    """`axis` (None, int or tuple) as a sorted tuple of non-negative axes."""
    if axis is None:
        return tuple(range(ndim))
    axis = axis if isinstance(axis, tuple) else (axis,)
    return tuple(sorted(a % ndim for a in axis))


def _kept(v, axis, keepdims):
    """A reduction's output (or its cotangent) broadcastable against its input."""
    return v if axis is None or keepdims else np.expand_dims(v, axis)


def _keepdims_shape(shape, axes):
    return tuple(1 if k in axes else n for k, n in enumerate(shape))


@template_helper
def tie_share(hits, axis, dtype):
    """`hits` divided by its count over `axis`: the equal share each tied element gets
    (no element hits when np.max's `initial` wins: then no share)."""
    share = np.asarray(hits).astype(dtype)          # summing floats beats summing bools
    count = share.sum(axis=axis, keepdims=True)
    share /= np.maximum(count, 1)
    return share


@template_helper
def extremum_vjp(slopes_g, extremum, a, axis, keepdims):
    """Cotangent of max/min: `g` split equally among the elements equal to the extremum."""
    a = np.asarray(a)
    axes = _axes(axis, a.ndim)
    shaped = np.reshape(extremum, _keepdims_shape(a.shape, axes))
    slopes_g = np.reshape(as_cotangent(slopes_g, a), _keepdims_shape(a.shape, axes))
    return slopes_g * tie_share(a == shaped, axes, cot_dtype(slopes_g, a))


@template_helper
def extremum_share(extremum, a, axis, initial=None):
    """The slopes of `extremum` (np.max, np.min, np.nanmax, np.nanmin) along `axis`, shaped
    like `a` (its VJP at a cotangent of ones): an equal share at the elements equal to
    the extremum, zero elsewhere (everywhere when `initial` wins). Piecewise constant in
    `a`, so it carries no derivative (nondiff ZERO): reverse mode over a max's tangent
    (hvp) needs no rule for it. The extremum is recomputed here, so the function reads
    `a` alone."""
    a = np.asarray(a)
    keywords = {} if initial is None else {"initial": initial}
    kept = extremum(a, axis=axis, keepdims=True, **keywords)
    return tie_share(a == kept, _axes(axis, a.ndim), a.dtype if a.dtype.kind in "fc" else float)


@template_helper
def prod_vjp(slopes_g, a, axis, keepdims):
    """Cotangent of np.prod: `g` times the product of the other elements.

    Products of prefixes and suffixes avoid dividing by `a`, so zeros are exact.
    """
    a = np.asarray(a)
    axes = _axes(axis, a.ndim)
    if a.size == 0:
        return np.zeros(a.shape, dtype=cot_dtype(slopes_g, a))
    kept = [k for k in range(a.ndim) if k not in axes]
    order = kept + list(axes)
    flat = np.transpose(a, order).reshape([a.shape[k] for k in kept] + [-1])
    ones = np.ones_like(flat[..., :1])
    left = np.cumprod(np.concatenate([ones, flat[..., :-1]], axis=-1), axis=-1)
    right = np.cumprod(np.concatenate([ones, flat[..., :0:-1]], axis=-1), axis=-1)[..., ::-1]
    others = (left * right).reshape([a.shape[k] for k in order])
    others = np.transpose(others, np.argsort(order))
    return np.reshape(as_cotangent(slopes_g, a), _keepdims_shape(a.shape, axes)) * others


@template_helper
def cumsum_vjp(g, a, axis=None, include_initial=False):
    """Cotangent of np.cumsum (and cumulative_sum): a reversed cumulative sum of `g`."""
    if include_initial:  # the leading 0 does not depend on `a`
        g = _drop_first(g, axis)
    return _reverse_cumsum(np.asarray(g), axis).reshape(np.shape(a))


def _drop_first(v, axis):
    """`v` without its first entry along `axis` (a flat `v` when axis is None)."""
    v = np.asarray(v)
    return np.moveaxis(np.moveaxis(v, axis or 0, 0)[1:], 0, axis or 0)


@template_helper
def cumprod_vjp(g, ans, a, axis=None, include_initial=False):
    """Cotangent of np.cumprod, exact with zeros.

    Without zeros it is the reversed cumulative sum of g * ans over a. With a zero it is
    the products' reverse recurrence (no division, no test on a == 0), so forward mode
    over this code (hvp forward over reverse) differentiates the cotangent as a function:
    a test `a == 0` would hold at the point only, and entries after a zero would get a
    zero tangent where a[zero]'s direction moves them (red41).
    """
    shape = np.shape(a)
    a = np.asarray(a)
    if include_initial:  # the leading 1 does not depend on `a`
        g, ans = _drop_first(g, axis), _drop_first(ans, axis)
    g = np.asarray(g)
    if axis is None:
        a, g, axis = a.ravel(), np.ravel(g), 0
    if a.shape[axis] == 0 or not (a == 0).any():
        return (_reverse_cumsum(g * ans, axis) / a).reshape(shape)
    return np.moveaxis(_cumprod_recurrence(np.moveaxis(g, axis, 0), np.moveaxis(a, axis, 0)),
                       0, axis).reshape(shape)


def _cumprod_recurrence(g, a):
    """sum over j >= i of g[j] d(prod a[:j+1]) / d a[i] along axis 0: the exclusive
    prefix product of a times s[i] = g[i] + a[i+1] s[i+1]."""
    left = np.cumprod(np.concatenate([np.ones_like(a[:1]), a[:-1]]), axis=0)
    s = [g[-1]]
    for i in range(a.shape[0] - 2, -1, -1):
        s.append(g[i] + a[i + 1] * s[-1])
    return left * np.stack(s[::-1])


def _reverse_cumsum(x, axis):
    return np.flip(np.cumsum(np.flip(x, axis), axis), axis)


@template_helper
def average_weights(a, axis, weights):
    """The normalised weights of np.average, broadcast against `a` (1/N when None)."""
    a = np.asarray(a)
    if weights is None:
        return 1 / int(np.prod([a.shape[k] for k in _axes(axis, a.ndim)]))
    w = _weights_like(a, axis, weights)
    return w / np.sum(w, axis=axis, keepdims=True)


def _weights_like(a, axis, weights):
    """np.average's weights as an array broadcastable against `a`."""
    w = np.asarray(weights)
    if w.shape != a.shape:  # 1-D (or axis-shaped) weights lie along `axis`
        axes = _axes(axis, a.ndim)
        w = np.reshape(w, [a.shape[k] if k in axes else 1 for k in range(a.ndim)])
    return w


@template_helper
def average_weights_vjp(g, ans, a, axis, weights, keepdims):
    """Cotangent of the weights of np.average: (a - average) / sum(weights)."""
    a = np.asarray(a)
    w = _weights_like(a, axis, weights)
    g = _kept(as_cotangent(g, a), axis, keepdims)
    ans = _kept(ans, axis, keepdims)
    cot = g * (a - ans) / np.sum(w, axis=axis, keepdims=True)
    return _sum_to_weights(cot, w, weights)


def _sum_to_weights(cot, w, weights):
    axes = tuple(k for k, n in enumerate(w.shape) if n == 1 and cot.shape[k] != 1)
    return np.sum(cot, axis=axes, keepdims=True).reshape(np.shape(weights))


@template_helper
def count_valid(a, axis):
    """How many non-NaN values each nan-reduction combines, kept dims, in a's float dtype."""
    return np.sum(~np.isnan(a), axis=axis, keepdims=True, dtype=cot_dtype(1.0, a))


@template_helper
def trace_vjp(slopes, a, offset, axis1, axis2):
    """Cotangent of np.trace: `g` on the (offset) diagonal of the two traced axes."""
    shape = np.shape(a)
    eye = np.eye(shape[axis1], shape[axis2], k=offset, dtype=cot_dtype(slopes, a))
    cot = np.expand_dims(as_cotangent(slopes, a), (-2, -1)) * eye
    return np.moveaxis(cot, (-2, -1), (axis1 % len(shape), axis2 % len(shape)))


@template_helper
def diagonal_vjp(g, a, offset, axis1, axis2):
    """Cotangent of np.diagonal: `g` written onto the diagonal of zeros shaped like `a`."""
    shape = np.shape(a)
    axis1, axis2 = axis1 % len(shape), axis2 % len(shape)
    out = np.zeros(shape, dtype=cot_dtype(g, a))
    view = np.moveaxis(out, (axis1, axis2), (-2, -1))
    k = np.shape(g)[-1]
    rows = np.arange(k) + max(-offset, 0)
    view[..., rows, rows + offset] = g
    return out


@template_helper
def initial_factor(initial):
    """The factor a product's `initial=` contributes (1 when absent): a function, so a
    literal `initial=3.0` never expands to `3.0 is None` (a SyntaxWarning, an error under
    -W error)."""
    return 1 if initial is None else initial


@template_helper(pure=True)
def average_weights_jvp(t, ans, a, axis, weights, keepdims):
    """Tangent of np.average from its weights: sum(dw (a - average)) / sum(w)."""
    a = np.asarray(a)
    w, dw = _weights_like(a, axis, weights), _weights_like(a, axis, t)
    slopes = (a - _kept(ans, axis, keepdims)) / np.sum(w, axis=axis, keepdims=True)
    return np.sum(slopes * dw, axis=axis, keepdims=keepdims)
