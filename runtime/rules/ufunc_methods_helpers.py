"""Template helpers for runtime/rules/ufunc_methods.py."""
import numpy as np

from ..helpers import unbroadcast
from ..registry import template_helper
from .reductions_helpers import prod_vjp, tie_share
from .shape_helpers import as_cotangent, cot_dtype


def _renewed_at(ans, axis):
    """Along `axis` (moved last): the index where the running extreme was last renewed."""
    y = np.moveaxis(np.asarray(ans), axis, -1)
    renewed = np.concatenate([np.ones_like(y[..., :1], dtype=bool),
                              y[..., 1:] != y[..., :-1]], axis=-1)
    return np.maximum.accumulate(np.where(renewed, np.arange(y.shape[-1]), 0), axis=-1)


@template_helper(pure=True)
def running_max_vjp(g, ans, array, axis):
    """Cotangent of np.maximum.accumulate / np.minimum.accumulate: each output element
    is the input where the running extreme was last renewed. A tie with the running
    extreme does not renew it: the earlier element keeps the cotangent (a valid
    one-sided choice; the derivative does not exist there)."""
    x = np.moveaxis(np.asarray(array), axis, -1)
    n = x.shape[-1]
    source = _renewed_at(ans, axis)
    g = np.moveaxis(np.broadcast_to(as_cotangent(g, array), np.shape(ans)), axis, -1)
    rows = np.arange(source.size // max(n, 1))[:, None]
    cot = np.zeros((rows.shape[0], n), dtype=cot_dtype(g, array))
    np.add.at(cot, (rows, source.reshape(-1, n)), g.reshape(-1, n))
    return np.moveaxis(cot.reshape(x.shape), -1, axis)


@template_helper(pure=True)
def outer_sum_vjp(g, A, B, operand):
    """Cotangent of np.add.outer(A, B) (shape A.shape + B.shape): g summed over the
    other operand's axes."""
    ndim_a, ndim_b = np.ndim(A), np.ndim(B)
    axes = tuple(range(ndim_a, ndim_a + ndim_b)) if operand == 0 else tuple(range(ndim_a))
    return np.sum(g, axis=axes).astype(cot_dtype(g, (A, B)[operand]))


@template_helper(pure=True)
def reduceat_vjp(g, array, indices, axis):
    """Cotangent of np.add.reduceat: output i sums array[indices[i]:indices[i+1]] along
    axis (the last runs to the end), or is array[indices[i]] alone where
    indices[i] >= indices[i+1]; each element read gets that output's cotangent."""
    x = np.moveaxis(np.asarray(array), axis, 0)
    g = np.moveaxis(np.asarray(g), axis, 0)
    starts = np.asarray(indices)
    ends = np.append(starts[1:], len(x))
    cot = np.zeros(x.shape, dtype=cot_dtype(g, array))
    for i, (start, end) in enumerate(zip(starts, ends)):
        cot[start:max(end, start + 1)] += g[i]
    return np.moveaxis(cot, 0, axis)


@template_helper(pure=True)
def segment_vjp(g, ans, array, indices, axis, kind):
    """Cotangent of np.maximum/np.minimum/np.multiply.reduceat: each segment (as
    reduceat_vjp reads them) gets its output's cotangent as np.max/np.min (ties share
    it) or np.prod (the product of the other elements) would give it."""
    x = np.moveaxis(np.asarray(array), axis, 0)
    g = np.moveaxis(np.asarray(g), axis, 0)
    y = np.moveaxis(np.asarray(ans), axis, 0)
    starts = np.asarray(indices)
    ends = np.append(starts[1:], len(x))
    cot = np.zeros(x.shape, dtype=cot_dtype(g, array))
    for i, (start, end) in enumerate(zip(starts, ends)):
        part = x[start:max(end, start + 1)]
        if kind == "multiply":
            cot[start:max(end, start + 1)] += prod_vjp(g[i], part, 0, False)
        else:
            cot[start:max(end, start + 1)] += g[i] * tie_share(part == y[i], 0, cot.dtype)
    return np.moveaxis(cot, 0, axis)


def added_at(a, indices, b):
    """`np.add.at(a, indices, b)` as a value (the compiler writes the statement as
    `a[...] = added_at(a, indices, b)`, transform/frontend/ufunc_at.py): a copy of `a`
    with b added at indices, a repeated index adding each time."""
    out = np.array(a, copy=True)
    np.add.at(out, indices, b)
    return out


def subtracted_at(a, indices, b):
    """`np.subtract.at(a, indices, b)` as a value, as added_at."""
    out = np.array(a, copy=True)
    np.subtract.at(out, indices, b)
    return out


@template_helper(pure=True)
def at_gather(g, indices, b):
    """Cotangent of b in added_at: what reached each place b was added to (g read at
    indices, once per occurrence of a repeated index), summed back to b's shape."""
    return unbroadcast(np.asarray(g)[indices], b)


@template_helper(pure=True)
def running_max_jvp(t, ans, axis):
    """Tangent of np.maximum/np.minimum.accumulate: each output's the tangent of the
    input where the running extreme was last renewed (as running_max_vjp)."""
    t = np.moveaxis(np.asarray(t), axis, -1)
    return np.moveaxis(np.take_along_axis(t, _renewed_at(ans, axis), -1), -1, axis)


@template_helper(pure=True)
def segment_jvp(t, ans, array, indices, axis, kind):
    """Tangent of np.maximum/np.minimum/np.multiply.reduceat: each output's from its
    segment, weighed by its slopes there (np.prod's, the product of the others; np.max's
    tie shares). Plain NumPy over prod_vjp and tie_share, so reverse mode takes it from
    its source (hvp, hessian, grad of grad)."""
    x, t, y = np.moveaxis(np.asarray(array), axis, 0), np.moveaxis(np.asarray(t), axis, 0), \
        np.moveaxis(np.asarray(ans), axis, 0)
    starts = [int(k) for k in np.ravel(indices)]
    ends = starts[1:] + [len(x)]
    dtype = np.result_type(t, y)
    rows = []
    for i in range(len(starts)):
        part = x[starts[i]:max(ends[i], starts[i] + 1)]
        if kind == "multiply":
            slopes = prod_vjp(np.ones(part.shape[1:]), part, 0, False)
        else:
            slopes = tie_share(part == y[i], 0, dtype)
        rows.append(np.sum(slopes * t[starts[i]:max(ends[i], starts[i] + 1)], axis=0))
    return np.moveaxis(np.stack(rows).astype(dtype, copy=False), 0, axis)


@template_helper(pure=True)
def subtract_accumulate_vjp(g, array, axis):
    """Cotangent of np.subtract.accumulate, y_k = x_0 - x_1 - ... - x_k along axis
    (2 x_0 - cumsum(x)): the first element gets the sum of g, element j > 0 minus the
    sum of g from j on."""
    g = np.moveaxis(np.broadcast_to(as_cotangent(g, array), np.shape(array)), axis, -1)
    tail = np.flip(np.cumsum(np.flip(g, -1), axis=-1), -1)
    cot = -tail
    cot[..., 0] = tail[..., 0]
    return np.moveaxis(cot, -1, axis)
