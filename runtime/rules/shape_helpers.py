"""Template helpers for shape changes, joins, splits and indexing rules.

Shape rules move cotangent entries around without arithmetic: a join's
cotangent is a split of `g`, a split's is a join, and a gather (take, sort)
scatters `g` back with accumulation where an element was read twice.
"""
import numpy as np

from ..complex_safety import RuleRefused
from ..registry import template_helper
from ..thunks import unthunk


def cot_dtype(g, x):
    """The float dtype for a cotangent of `x` built from `g` (Python scalars stay weak).

    Reads only x's dtype, so `x` may be a tape's ShapeOnly stand-in.
    """
    if _is_python_number(x):
        return np.result_type(x, g, 1.0)
    dtype = getattr(x, "dtype", None)
    if dtype is None:
        dtype = np.asarray(x).dtype
    # NumPy 2 promotion depends on dtypes and on Python number types, not values: cache it
    g_dtype = getattr(g, "dtype", None)
    if g_dtype is None and isinstance(g, (list, tuple)):   # builtin sum's per-entry list
        g = np.asarray(g)
        g_dtype = g.dtype
    key = (dtype, type(g) if g_dtype is None else g_dtype)
    out = _COT_DTYPES.get(key)
    if out is None:
        out = _COT_DTYPES[key] = np.result_type(dtype, g, 1.0)
    return out


_COT_DTYPES = {}


def _is_python_number(v):
    return isinstance(v, (int, float, complex)) and not isinstance(v, (bool, np.generic))


@template_helper
def as_cotangent(value, like):
    """`value` as an array; a Python number takes `like`'s float dtype (float32 stays)."""
    return np.asarray(value, dtype=cot_dtype(value, like)) if _is_python_number(value) \
        else np.asarray(value)


def sum_to_shape(g, shape):
    """Sum `g` down to `shape` (a broadcast of `shape`), like unbroadcast with a shape."""
    g = np.asarray(g)
    extra = g.ndim - len(shape)
    axes = tuple(range(extra)) + tuple(
        extra + k for k, n in enumerate(shape) if n == 1 and g.shape[extra + k] != 1)
    return np.sum(g, axis=axes, keepdims=True).reshape(shape) if axes else g


def _like(container, parts):
    """`parts` in the container type of `container` (tuple stays tuple)."""
    return tuple(parts) if isinstance(container, tuple) else list(parts)


def _split_back(g, arrays, axis, widths):
    """`g` cut along `axis` into pieces of `widths`, each a view shaped like its array
    (basic slicing: no split, no cumulative sums, no copies)."""
    g = g if type(g) is np.ndarray else np.asarray(g)
    lead = (slice(None),) * (axis % g.ndim)
    pieces, start = [], 0
    for a, width in zip(arrays, widths):
        cut = slice(start, start + width)
        piece = g[lead + (cut,)] if lead else g[cut]
        start += width
        shape = _shape(a)
        pieces.append(piece if piece.shape == shape else piece.reshape(shape))
    return _like(arrays, pieces)


def _shape(a):
    return a.shape if type(a) is np.ndarray else np.shape(a)


@template_helper
def concatenate_vjp(slopes, arrays, axis):
    """Cotangent of np.concatenate: `g` cut back into one slice per input."""
    if axis is None:  # inputs were flattened first
        return _split_back(np.ravel(slopes), arrays, 0, [np.size(a) for a in arrays])
    return _split_back(slopes, arrays, axis, [_shape(a)[axis] for a in arrays])


@template_helper
def hstack_vjp(g, tup):
    """Cotangent of np.hstack: 1-D inputs were joined on axis 0, others on axis 1."""
    if all(np.ndim(a) <= 1 for a in tup):
        return _split_back(g, tup, 0, [np.size(a) for a in tup])
    return _split_back(g, tup, 1, [np.shape(a)[1] for a in tup])


@template_helper
def vstack_vjp(g, tup):
    """Cotangent of np.vstack: inputs of ndim < 2 became one row each."""
    return _split_back(g, tup, 0, [np.shape(a)[0] if np.ndim(a) >= 2 else 1 for a in tup])


@template_helper
def dstack_vjp(g, tup):
    """Cotangent of np.dstack: inputs of ndim < 3 became one depth slice each."""
    return _split_back(g, tup, 2, [np.shape(a)[2] if np.ndim(a) >= 3 else 1 for a in tup])


@template_helper
def column_stack_vjp(g, tup):
    """Cotangent of np.column_stack: inputs of ndim < 2 became one column each."""
    return _split_back(g, tup, 1, [np.shape(a)[1] if np.ndim(a) >= 2 else 1 for a in tup])


@template_helper
def stack_vjp(slopes, arrays, axis):
    """Cotangent of np.stack: the slices of `g` along the new axis."""
    return _like(arrays, [np.reshape(p, np.shape(a))
                          for p, a in zip(np.moveaxis(np.asarray(slopes), axis, 0), arrays)])


@template_helper
def join_vjp(g, ans, axis, join=np.concatenate):
    """Cotangent of a split (or unstack): join the parts of `g`, zeros where a part is None."""
    parts = [unthunk(gk) for gk in g]
    return join([np.zeros_like(a) if gk is None else gk for gk, a in zip(parts, ans)], axis)


@template_helper
def tile_vjp(g, A, reps):
    """Cotangent of np.tile: view `g` as (rep, block) pairs per axis and sum the reps."""
    shape = np.shape(A)
    reps = tuple(reps) if np.ndim(reps) else (int(reps),)
    d = max(len(shape), len(reps))
    block = (1,) * (d - len(shape)) + shape
    reps = (1,) * (d - len(reps)) + reps
    g = np.reshape(g, [n for pair in zip(reps, block) for n in pair])
    return np.sum(g, axis=tuple(range(0, 2 * d, 2))).reshape(shape)


@template_helper
def repeat_vjp(g, a, repeats, axis):
    """Cotangent of np.repeat: sum each run of copies (runs may be empty)."""
    shape = np.shape(a)
    g = np.asarray(g)
    if axis is None:
        g, axis, n = g.ravel(), 0, int(np.prod(shape))
    else:
        axis, n = axis % len(shape), shape[axis]
    counts = np.broadcast_to(repeats, (n,))
    if g.shape[axis] == 0:
        return np.zeros(shape, dtype=cot_dtype(g, a))
    starts = np.minimum(np.cumsum(counts) - counts, g.shape[axis] - 1)
    sums = np.add.reduceat(g, starts, axis=axis)
    empty = np.reshape(counts == 0, [-1 if k == axis else 1 for k in range(g.ndim)])
    return np.where(empty, 0, sums).reshape(shape)


_COPYING_PAD_MODES = ("edge", "reflect", "symmetric", "wrap")


@template_helper
def pad_vjp(g, array, pad_width, mode, kwargs):
    """Cotangent of np.pad: the interior of `g` for constant padding; for padding
    modes that copy elements, also the copies, found by padding an index array."""
    shape = np.shape(array)
    widths = np.broadcast_to(np.asarray(pad_width, dtype=int), (len(shape), 2))
    if mode == "constant":
        return g[tuple(slice(lo, lo + n) for (lo, _), n in zip(widths, shape))]
    if mode not in _COPYING_PAD_MODES or (kwargs or {}).get("reflect_type") == "odd":
        raise RuleRefused(f"np.pad mode {mode!r} has no rule (linear copies only)")
    index = np.arange(int(np.prod(shape))).reshape(shape)
    source = np.pad(index, pad_width, mode, **(kwargs or {})).ravel()
    sums = np.bincount(source, weights=np.ravel(g), minlength=index.size)
    return sums.reshape(shape).astype(cot_dtype(g, array), copy=False)


@template_helper
def take_vjp(g, a, indices, axis, mode):
    """Cotangent of np.take: scatter-add `g` to the taken positions (repeats add up)."""
    shape = np.shape(a)
    n = int(np.prod(shape)) if axis is None else shape[axis]
    indices = np.asarray(indices)
    if mode == "wrap":
        indices = indices % n
    elif mode == "clip":
        indices = np.clip(indices, 0, n - 1)
    out = np.zeros(n if axis is None else shape, dtype=cot_dtype(g, a))
    where = indices if axis is None else (slice(None),) * (axis % len(shape)) + (indices,)
    np.add.at(out, where, g)
    return out.reshape(shape)


@template_helper
def take_along_axis_vjp(g, arr, indices, axis):
    """Cotangent of np.take_along_axis: scatter-add `g` with full index arrays."""
    shape = np.shape(arr)
    indices = np.asarray(indices)
    if axis is None:
        out = np.zeros(int(np.prod(shape)), dtype=cot_dtype(g, arr))
        np.add.at(out, indices, g)
        return out.reshape(shape)
    where = [np.arange(n).reshape([-1 if d == k else 1 for d in range(len(shape))])
             for k, n in enumerate(shape)]
    where[axis] = indices                 # a negative axis counts from the end, like NumPy's
    out = np.zeros(shape, dtype=cot_dtype(g, arr))
    np.add.at(out, tuple(where), g)
    return out


@template_helper
def permutation_vjp(slopes, answer, a, axis):
    """Cotangent of a function that permutes `a` along `axis` (sort, partition).

    Stable argsorts of input and output line equal values up, so ans[dst[j]]
    came from a[src[j]]; ties get one consistent (arbitrary) assignment.
    """
    shape = np.shape(a)
    a = np.asarray(a)
    if axis is None:
        a, axis = a.ravel(), -1
    src = np.argsort(a, axis=axis, kind="stable")
    dst = np.argsort(answer, axis=axis, kind="stable")
    out = np.zeros(a.shape, dtype=cot_dtype(slopes, a))
    np.put_along_axis(out, src, np.take_along_axis(np.asarray(slopes), dst, axis), axis)
    return out.reshape(shape)


@template_helper
def diff_vjp(g, a, n, axis, prepend, append):
    """Cotangent of np.diff: the adjoint of x[1:] - x[:-1], applied n times."""
    g = np.asarray(g)
    before = [(0, 0)] * g.ndim
    after = [(0, 0)] * g.ndim
    before[axis], after[axis] = (1, 0), (0, 1)
    for _ in range(n):
        g = np.pad(g, before) - np.pad(g, after)
    start = 0 if prepend is None else (1 if np.ndim(prepend) == 0 else np.shape(prepend)[axis])
    index = [slice(None)] * g.ndim
    index[axis] = slice(start, start + np.shape(a)[axis])
    return g[tuple(index)]


@template_helper
def unstack_vjp(slopes, obj):
    """Cotangent of np.array(obj): `g` for an array, else `g` split to mirror the
    (nested) list or tuple, one cotangent per element; a dict's (`d.copy()`) as it is."""
    if type(slopes) is np.ndarray and type(obj) is np.ndarray and slopes.shape == obj.shape:
        if slopes.dtype.kind == "c" and obj.dtype.kind != "c":
            return slopes.real                # np.array(x, dtype=complex): docs/complex.md
        return slopes                                    # `u.copy()` of an array: the hot path
    if isinstance(obj, dict) or slopes is None or isinstance(slopes, dict):
        return slopes        # a dict's copy; an entry nobody read; a record's (its fields')
    if isinstance(slopes, (list, tuple)) and isinstance(obj, (list, tuple)):   # `xs.copy()`
        return _like(obj, [unstack_vjp(part, item) for part, item in zip(slopes, obj)])
    while np.ndim(slopes) > _nested_ndim(obj):  # undo ndmin
        slopes = slopes[0]
    if not isinstance(obj, (list, tuple)):
        slopes = np.reshape(slopes, np.shape(obj))
        return slopes.real if np.iscomplexobj(slopes) and not np.iscomplexobj(obj) else slopes
    return _like(obj, [unstack_vjp(slopes[k], item) for k, item in enumerate(obj)])


def _nested_ndim(obj):
    if isinstance(obj, (list, tuple)):
        return 1 + (_nested_ndim(obj[0]) if obj else 0)
    return np.ndim(obj)


@template_helper
def float_type_vjp(g, x):
    """Cotangent of np.float64(x) (or float32, ...): g in x's dtype, a Python float
    for a Python number; none for an integer or bool array."""
    if isinstance(x, (np.ndarray, np.generic)):
        return cast_back(g, x, float)
    return float(np.real(g)) if np.ndim(g) == 0 else g


@template_helper
def cast_back(g, x, dtype):
    """Cotangent of x.astype(dtype): `g` in x's dtype; none through an integer cast."""
    if not np.issubdtype(np.dtype(dtype), np.inexact):
        return None
    if isinstance(x, (np.ndarray, np.generic)):
        if not np.issubdtype(x.dtype, np.inexact):
            return None
        g = np.asarray(g)
        if g.dtype.kind == "c" and x.dtype.kind != "c":   # real -> complex: docs/complex.md
            g = g.real
        return g.astype(x.dtype, copy=False)
    return g


@template_helper
def cast_jvp(t, ans, dtype):
    """Tangent of x.astype(dtype): t cast likewise, zero through an integer or bool cast
    (the result is piecewise constant: `x.astype(int) * x` has slope int(x), not 2x)."""
    if not np.issubdtype(np.dtype(dtype), np.inexact):
        return np.zeros(np.shape(ans)) if isinstance(ans, np.ndarray) else 0.0
    return np.asarray(t).astype(dtype)


@template_helper
def windows_vjp(g, x, window_shape, axis=None):
    """Cotangent of sliding_window_view: each window's cotangent added back where the
    window reads x (np.add.at over the windows of x's flat positions)."""
    shape = np.shape(x)
    size = int(np.prod(shape))
    positions = np.lib.stride_tricks.sliding_window_view(
        np.arange(size).reshape(shape), window_shape, axis)
    out = np.zeros(size, dtype=cot_dtype(g, x))
    np.add.at(out, positions.ravel(), np.ravel(g))
    return out.reshape(shape)
