"""Results the caller owns: what grad, value_and_grad, vjp's pullback and hvp hand back.

A derivative rule may give two arguments one cotangent object (`x + y`: both get the
sum's), a pullback a view of the caller's own cotangent (`x.reshape(...)`), numba two
views of one buffer, a broadcast a read-only view. Handed back as they are, a write into
one gradient (`g[0] *= lr`, clipping in place) would change another, the caller's
arguments, or raise. `owned` copies exactly those arrays: read-only ones, and ones that
may share memory (np.may_share_memory: the arrays' address ranges overlap) with an
earlier result or with an array among the inputs. Anything else is handed back as it is
(the common case: fresh arrays, no copy).
"""
import bisect
import copy
import dataclasses

import numpy as np

try:                                            # NumPy 2
    from numpy.lib.array_utils import byte_bounds
except ImportError:                             # pragma: no cover - NumPy 1
    byte_bounds = np.byte_bounds

# types holding no array (an argument of one of them is passed over at once)
_PLAIN = frozenset({float, int, bool, complex, str, type(None), np.float64, np.float32})
# np.may_share_memory without its __array_function__ dispatch (only ndarrays reach it)
_shares = getattr(np.may_share_memory, "_implementation", np.may_share_memory)
PAIRWISE = 48           # up to this many comparisons: np.may_share_memory pair by pair


def owned(results, inputs=()):
    """results (an array, a number, None, or tuples, lists, dicts and dataclass instances
    of them) with each array that is read-only, or may share memory with an earlier
    result's array or an array in inputs, replaced by its copy; results itself when no
    array needed copying."""
    if type(results) is np.ndarray and results.flags.writeable:     # one gradient
        for x in inputs:
            if type(x) is np.ndarray:
                if _shares(results, x):
                    return results.copy()
            elif type(x) not in _PLAIN and any(_shares(results, a)
                                               for a in arrays(x)):
                return results.copy()
        return results
    found = arrays(results, objects=False)
    marked = _to_copy(found, arrays(inputs)) if found else ()
    if not marked:
        return results
    count = iter(range(len(found)))
    return _rebuilt(results, lambda a: a.copy() if next(count) in marked else a)


def arrays(tree, objects=True):
    """The arrays in tree, in order (inside tuples, lists, dicts, dataclass instances and,
    with objects, a few levels deep, other objects' attributes)."""
    found = []
    _collect(tree, found, 0 if objects else None)
    return found


def _collect(tree, found, depth):
    """arrays()'s walk; depth None: no objects' attributes, no depth limit."""
    kind = type(tree)
    if kind is np.ndarray:
        found.append(tree)
        return
    if kind in _PLAIN or depth is not None and depth > 4:
        return
    if kind is tuple or kind is list or kind is dict:
        parts = tree.values() if kind is dict else tree
    elif isinstance(tree, np.ndarray):
        found.append(tree)
        return
    else:
        parts = _parts(tree, depth is not None)
    deeper = None if depth is None else depth + 1
    for part in parts:
        _collect(part, found, deeper)


def _parts(tree, objects):
    """The entries of a container that is not a plain tuple, list or dict."""
    if isinstance(tree, (tuple, list)):
        return tree
    if isinstance(tree, dict):
        return tree.values()
    if isinstance(tree, type) or isinstance(tree, (str, bytes, np.generic)):
        return ()
    if dataclasses.is_dataclass(tree):
        return [getattr(tree, f.name) for f in dataclasses.fields(tree)]
    return list(vars(tree).values()) if objects and hasattr(tree, "__dict__") else ()


def _to_copy(found, given):
    """Indices into found of the arrays to copy."""
    marked = {k for k, a in enumerate(found) if not a.flags.writeable}
    if len(found) * (len(found) + len(given)) > PAIRWISE:
        return _swept(found, given, marked)
    shares = _shares
    for k, a in enumerate(found):
        if k in marked:
            continue
        for x in given:
            if shares(a, x):
                marked.add(k)
                break
        else:
            for j in range(k):
                if j not in marked and shares(a, found[j]):
                    marked.add(k)
                    break
    return marked


def _swept(found, given, marked):
    """_to_copy for many arrays: address ranges sorted, O(n log n)."""
    spans = _merged(sorted(_bounds(x) for x in given))
    starts = [lo for lo, _ in spans]
    kept = []
    for k, a in enumerate(found):
        lo, hi = _bounds(a)
        at = bisect.bisect_left(starts, hi) - 1
        if k in marked or lo == hi:
            continue
        if at >= 0 and spans[at][1] > lo:
            marked.add(k)
        else:
            kept.append((lo, hi, k))
    reach = None
    for lo, hi, k in sorted(kept):
        if reach is not None and lo < reach:
            marked.add(k)
        else:
            reach = hi if reach is None else max(reach, hi)
    return marked


def _bounds(a):
    lo, hi = byte_bounds(a)
    return (lo, lo) if a.size == 0 else (lo, hi)


def _merged(spans):
    out = []
    for lo, hi in spans:
        if lo == hi:
            continue
        if out and lo < out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], hi))
        else:
            out.append((lo, hi))
    return out


def _rebuilt(tree, leaf):
    """tree with leaf(a) for each array a, in arrays()'s order (containers made anew)."""
    if isinstance(tree, np.ndarray):
        return leaf(tree)
    if isinstance(tree, tuple) and hasattr(tree, "_fields"):
        return type(tree)(*[_rebuilt(v, leaf) for v in tree])
    if isinstance(tree, (tuple, list)):
        return type(tree)([_rebuilt(v, leaf) for v in tree])
    if isinstance(tree, dict):
        return {k: _rebuilt(v, leaf) for k, v in tree.items()}
    if dataclasses.is_dataclass(tree) and not isinstance(tree, type):
        made = copy.copy(tree)
        for field in dataclasses.fields(tree):
            object.__setattr__(made, field.name, _rebuilt(getattr(tree, field.name), leaf))
        return made
    return tree
