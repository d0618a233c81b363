"""Template helpers for runtime/rules/gathers.py.

A function that only moves, repeats or drops the entries of x (np.delete, np.insert,
np.compress, np.resize, np.block, ...) is its own bookkeeping: applied to the indices of
x's entries (`entry_indices`), it says where each output entry came from (-1 where it
is not an entry of x: a fill, another argument), and each output entry's cotangent
goes back there (summed where an entry is repeated). No index arithmetic of NumPy's
own is repeated here, so every form of `obj`, `axis` and broadcasting NumPy accepts is
handled as NumPy handles it.
"""
import numpy as np

from ..registry import template_helper
from ..helpers import unbroadcast
from ..thunks import Thunk, unthunk
from .shape_helpers import cot_dtype, sum_to_shape


@template_helper(pure=True, shape_only=(0,))
def entry_indices(x, offset=0):
    """The flat index of each entry of x (plus offset), shaped like x."""
    return np.arange(offset, offset + np.size(x)).reshape(np.shape(x))


@template_helper(pure=True)
def gather_vjp(g, x, sources):
    """Cotangent of x: output entry j's cotangent added to entry sources[j] of x."""
    flat = np.ravel(sources)
    keep = flat >= 0
    cot = np.zeros(np.size(x), dtype=cot_dtype(g, x))
    np.add.at(cot, flat[keep], np.ravel(np.broadcast_to(g, np.shape(sources)))[keep])
    return cot.reshape(np.shape(x)) if np.ndim(x) else cot[0]


@template_helper(pure=True)
def insert_sources(arr, obj, values, axis, part):
    """Where np.insert's output entries came from: arr's entries (part 0) or values'
    (part 1), -1 for the other's."""
    own = (entry_indices(arr), np.full(np.shape(values), -1, dtype=np.intp)) if part == 0 \
        else (np.full(np.shape(arr), -1, dtype=np.intp), entry_indices(values))
    return np.insert(own[0], obj, own[1], axis=axis)


def _leaves(arrays):
    """The arrays of np.block's nested lists, depth first."""
    if isinstance(arrays, list):
        return [leaf for item in arrays for leaf in _leaves(item)]
    return [arrays]


def _tags(arrays, offsets):
    """np.block's nested lists with each array replaced by its entries' indices."""
    if isinstance(arrays, list):
        return [_tags(item, offsets) for item in arrays]
    start = offsets.pop(0)
    return entry_indices(arrays, start)


def _rebuild(arrays, parts):
    if isinstance(arrays, list):
        return [_rebuild(item, parts) for item in arrays]
    return parts.pop(0)


@template_helper(pure=True)
def block_vjp(g, arrays):
    """Cotangent of np.block's nested lists: each array's entries' cotangents, in the
    same nesting."""
    leaves = _leaves(arrays)
    sizes = [int(np.size(leaf)) for leaf in leaves]
    offsets = list(np.cumsum([0] + sizes[:-1]))
    sources = np.block(_tags(arrays, offsets))
    flat = gather_vjp(g, np.zeros(sum(sizes), dtype=cot_dtype(g, leaves[0])), sources)
    parts, start = [], 0
    for leaf, size in zip(leaves, sizes):
        part = flat[start:start + size].reshape(np.shape(leaf)).astype(cot_dtype(g, leaf))
        parts.append(part if np.ndim(leaf) else part[()])
        start += size
    return _rebuild(arrays, parts)


@template_helper(pure=True)
def ediff1d_vjp(g, ary, to_end, to_begin, part):
    """Cotangent of np.ediff1d: g is [to_begin, diff(ravel(ary)), to_end] (part 0: ary,
    1: to_end, 2: to_begin)."""
    g = np.ravel(g)
    shaped = (lambda piece, x: piece.reshape(np.shape(x)).astype(cot_dtype(g, x))[()])
    n_begin = 0 if to_begin is None else np.size(to_begin)
    n_diff = max(np.size(ary) - 1, 0)
    if part == 2:
        return shaped(g[:n_begin], to_begin)
    if part == 1:
        return shaped(g[n_begin + n_diff:], to_end)
    d = g[n_begin:n_begin + n_diff]
    cot = np.zeros(np.size(ary), dtype=cot_dtype(g, ary))
    cot[1:] += d
    cot[:-1] -= d
    return cot.reshape(np.shape(ary))


@template_helper(pure=True)
def choose_vjp(g, a, choices, mode):
    """Cotangents of np.choose's choices: g where the (wrapped or clipped) index picked
    that choice, summed back to the choice's shape; an array of choices gets an array."""
    index = np.asarray(a)
    if mode == "wrap":
        index = index % len(choices)
    elif mode == "clip":
        index = np.clip(index, 0, len(choices) - 1)
    parts = [unbroadcast(np.where(index == k, g, 0).astype(cot_dtype(g, choice)), choice)
             for k, choice in enumerate(choices)]
    if isinstance(choices, np.ndarray):
        return np.stack([np.asarray(p) for p in parts])
    return tuple(parts) if isinstance(choices, tuple) else parts


@template_helper(pure=True)
def identity_vjp(g, a):
    """g as the cotangent of `a` (in a's float dtype: a cast to dtype= is undone)."""
    cot = np.asarray(g).astype(cot_dtype(g, a), copy=False)
    return cot if np.ndim(a) else cot[()]


@template_helper(pure=True)
def bincount_weights_vjp(g, x, weights):
    """Cotangent of np.bincount's weights: each weight's bin's cotangent."""
    return np.asarray(g)[np.asarray(x)].astype(cot_dtype(g, weights))


def broadcast_arrays_rule(*args, subok=False):
    """(np.broadcast_arrays(*args), pullback): each output is its input broadcast, so
    its cotangent is summed back to the input's shape."""
    ans = np.broadcast_arrays(*args, subok=subok)

    def pullback(g):
        def cotangent(k):
            def value():
                part = unthunk(unthunk(g)[k])
                if part is None:
                    return np.zeros(np.shape(args[k]), dtype=cot_dtype(1.0, args[k]))
                summed = sum_to_shape(part, np.shape(args[k]))
                return summed.astype(cot_dtype(part, args[k]))[()]
            return Thunk(value)
        return tuple(cotangent(k) for k in range(len(args)))
    return ans, pullback
