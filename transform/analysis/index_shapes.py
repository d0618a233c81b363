"""Shapes of slices, joins and reductions whose index or axis is a literal (stage 5).

    t1 = u[2:]                    u 256  ->  t1 254
    t5 = u[1:-1, 0]               u 8x3  ->  t5 6
    t6 = q[:, None, :]            q 16x3 ->  t6 16x1x3
    parts = [u[:1], t4, u[-1:]]
    v = np.concatenate(parts)     1, 254, 1  ->  v 256
    s = np.sum(t6, axis=1)        t6 16x16x3 ->  s 16x3

A rule specialised to argument shapes then knows that `u[2:] - 2 * u[1:-1]` adds two
arrays of one shape (no `unbroadcast`, no shape kept on the tape), and that a loop
carrying `u = np.concatenate([...])` keeps u's shape.
"""
import functools

import gast
import numpy as np


def literal_index(node):
    """The index a literal index node stands for (`1:-1`, `0`, `(1:, 0)`), else None."""
    if isinstance(node, gast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, gast.Slice):
        parts = [None if p is None else literal_index(p) for p in
                 (node.lower, node.upper, node.step)]
        given = [p for p in (node.lower, node.upper, node.step) if p is not None]
        if any(isinstance(p, slice) for p in parts) or \
                len([p for p in parts if p is not None]) != len(given):
            return None
        return slice(*parts)
    if isinstance(node, gast.Tuple) and node.elts:      # `None` in a tuple adds an axis
        parts = [None if _new_axis(p) else literal_index(p) for p in node.elts]
        if any(p is None and not _new_axis(e) or isinstance(p, tuple)
               for p, e in zip(parts, node.elts)):
            return None
        return tuple(parts)
    return None


def _new_axis(node):
    return isinstance(node, gast.Constant) and node.value is None


def _hashable(index):
    if isinstance(index, slice):
        return ("slice", index.start, index.stop, index.step)
    if isinstance(index, tuple):
        return tuple(_hashable(p) for p in index)
    return index


def _unhash(key):
    if isinstance(key, tuple) and key and key[0] == "slice":
        return slice(*key[1:])
    if isinstance(key, tuple):
        return tuple(_unhash(p) for p in key)
    return key


@functools.lru_cache(maxsize=256)
def _indexing(key):
    """The shape rule of `x[index]`, one function per index (derived classes key on it)."""
    index = _unhash(key)

    def indexed_shape(shape):
        if not shape:
            raise IndexError("a scalar has no entries")
        # a zero-strided view: NumPy's own answer, without allocating x
        return np.broadcast_to(np.empty((), dtype=bool), shape)[index].shape
    return indexed_shape


def indexing_rule(index_node):
    """The shape rule for indexing by `index_node`, or None when it is not a literal."""
    index = literal_index(index_node)
    return None if index is None else _indexing(_hashable(index))


@functools.lru_cache(maxsize=64)
def joining_rule(axis, new_axis):
    """The shape rule of np.concatenate (new_axis False) or np.stack (True) on `axis`."""
    def joined_shape(*shapes):
        first = shapes[0] if shapes else None
        if first is None or any(len(s) != len(first) for s in shapes):
            raise ValueError("parts of different ranks")
        if new_axis:
            if any(s != first for s in shapes):
                raise ValueError("stacked parts of different shapes")
            at = _axis(axis, len(first) + 1)
            return first[:at] + (len(shapes),) + first[at:]
        at = _axis(axis, len(first))
        if any(s[:at] + s[at + 1:] != first[:at] + first[at + 1:] for s in shapes):
            raise ValueError("joined parts differ off the axis")
        return first[:at] + (sum(s[at] for s in shapes),) + first[at + 1:]
    return joined_shape


def _axis(axis, ndim):
    if not -ndim <= axis < ndim:
        raise ValueError("axis out of range")
    return axis % ndim


def literal_axis(node):
    """An int `axis=` literal, else None."""
    if isinstance(node, gast.Constant) and type(node.value) is int:
        return node.value
    return None


_REDUCTIONS = (np.sum, np.mean, np.prod, np.max, np.amax, np.min, np.amin, np.nanmax,
               np.nanmin, np.ptp, np.var, np.std, np.nansum, np.nanmean, np.nanvar,
               np.nanstd, np.nanprod)


def reducing_rule(prim):
    """The shape rule of a NumPy reduction over literal axes (an int or a tuple of
    ints, `keepdims` a literal or left out), else None."""
    if prim.fn not in _REDUCTIONS:
        return None
    axis, keep = prim.inputs.get("axis"), prim.inputs.get("keepdims")
    axes = (literal_axis(axis),) if not isinstance(axis, gast.Tuple) else \
        tuple(literal_axis(a) for a in axis.elts)
    if not axes or None in axes or keep is not None and not (
            isinstance(keep, gast.Constant) and type(keep.value) is bool):
        return None
    return _reducing(axes, keep is not None and keep.value)


@functools.lru_cache(maxsize=64)
def _reducing(axes, keepdims):
    def reduced_shape(shape):
        at = {_axis(a, len(shape)) for a in axes}
        if len(at) != len(axes):
            raise ValueError("an axis repeated")
        if keepdims:
            return tuple(1 if k in at else n for k, n in enumerate(shape))
        return tuple(n for k, n in enumerate(shape) if k not in at)
    return reduced_shape
