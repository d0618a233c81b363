"""Adding cotangents: None is zero, thunks combine flat, owned buffers update in place.

The generated code calls one of these per accumulation, chosen by the loop pass:
`accum` (deferred, flat), `accumulate_into` (materialised, in place into a
buffer the generated code owns), `accum_eager` (materialised, fresh sum),
`accum_nested` (the original nesting bug, kept for comparison).
"""
import inspect

import numpy as np

from .complex_safety import SubscriptRefused
from .registry import helper
from .thunks import Thunk, unthunk


def add_values(a, b):
    """a + b for concrete cotangents (arrays, numbers, containers); None is zero."""
    if a is None:
        return b
    if b is None:
        return a
    if isinstance(a, Thunk) or isinstance(b, Thunk):     # an entry of a dict's or list's
        return add_values(unthunk(a), unthunk(b))
    if isinstance(a, (list, tuple)) != isinstance(b, (list, tuple)):
        # a sequence's cotangent from a NumPy function of it (np.sum(xs)) is one array,
        # from indexing it a list: add them entry by entry
        a, b = _entries(a, b), _entries(b, a)
    if isinstance(a, tuple):
        return tuple(add_values(x, y) for x, y in zip(a, b))
    if isinstance(a, list):
        return [add_values(x, y) for x, y in zip(a, b)]
    if isinstance(a, dict):
        out = dict(a)
        for key, value in b.items():
            out[key] = add_values(out.get(key), value)
        return out
    return a + b


def _entries(g, like):
    """g as a list of entries when `like` is a list or tuple and g an array of its rows."""
    if isinstance(like, (list, tuple)) and isinstance(g, np.ndarray) and \
            g.shape[:1] == (len(like),):
        return list(g)
    return g


class FlatSum(Thunk):
    """A pending sum kept as a flat chain of parts: accumulating is O(1),
    forcing walks the chain with a loop (no recursion) and sums once."""

    __slots__ = ("_prev", "_part")

    def __init__(self, prev, part):
        Thunk.__init__(self, self._sum)
        self._prev = prev
        self._part = part

    def _sum(self):
        parts, node = [], self
        while type(node) is FlatSum and node._fn is not None:
            parts.append(node._part)
            node = node._prev
        if node is not None:
            parts.append(node)
        total, owned = None, False
        for part in reversed(parts):
            value = unthunk(part)
            if value is None:
                continue
            if owned and isinstance(total, np.ndarray) and isinstance(value, np.ndarray) \
                    and total.shape == value.shape:
                total = add_in_place(total, value)   # our own buffer: the first fresh sum
            else:
                owned = total is not None
                total = add_values(total, value)
        self._prev = self._part = None   # let the closures go
        return total


def accum(acc, contribution):
    """Deferred accumulation: values add now, thunks join one flat pending sum."""
    if contribution is None:
        return acc
    if acc is None:
        return contribution
    if isinstance(acc, Thunk) or isinstance(contribution, Thunk):
        return FlatSum(acc, contribution)
    return add_values(acc, contribution)


@helper(in_place=True)
def accum_eager(acc, contribution):
    """Materialise at every accumulation (Zygote PR #1555): a fresh sum each time."""
    return add_values(unthunk(acc), unthunk(contribution))


def accum_flat(acc, contribution):
    """Never materialise; keep every contribution in one flat pending list (AccThunk)."""
    if contribution is None:
        return acc
    if acc is None:
        return contribution if isinstance(contribution, Thunk) else FlatSum(None, contribution)
    return FlatSum(acc, contribution)


def accum_nested(acc, contribution):
    """Never materialise; wrap the previous sum in a new thunk (the original bug)."""
    if contribution is None:
        return acc
    if acc is None:
        return contribution
    return Thunk(lambda: add_values(unthunk(acc), unthunk(contribution)))


def own(value):
    """A materialised copy the generated code may update in place (None stays None)."""
    value = unthunk(value)
    if isinstance(value, np.ndarray):
        return np.array(value, copy=True)
    if isinstance(value, (list, tuple)):
        return [own(v) for v in value]
    if isinstance(value, dict):
        return {k: own(v) for k, v in value.items()}
    return value


@helper(in_place=True)
def accumulate_into(buffer, contribution):
    """buffer += contribution, in place when buffer is an array the caller owns.

    The caller (generated code) guarantees `buffer` is None or came from `own`
    or from an earlier `accumulate_into`; the contribution itself is never mutated.
    """
    if type(buffer) is np.ndarray and type(contribution) is np.ndarray \
            and buffer.shape == contribution.shape:
        try:                                # the loop's hot path, checked first
            buffer += contribution
            return buffer
        except TypeError:                   # complex into real: see add_in_place
            return buffer + contribution
    contribution = unthunk(contribution)
    if contribution is None:
        return buffer
    if buffer is None:
        return own(contribution)
    if isinstance(buffer, np.ndarray) and buffer.shape == np.shape(contribution):
        return add_in_place(buffer, contribution)
    if isinstance(buffer, list):
        for k, part in enumerate(contribution):
            buffer[k] = accumulate_into(buffer[k], part)
        return buffer
    return add_values(buffer, contribution)


def add_in_place(buffer, contribution):
    """buffer += contribution into an owned buffer; a complex contribution to a real
    buffer (a complex value whose first cotangent was real, docs/complex.md) gives a
    fresh complex sum instead of NumPy's casting error: never a dropped imaginary part."""
    try:
        buffer += contribution
    except TypeError:
        return buffer + contribution
    return buffer


def real_for(g, x):
    """g's real part when x is real: at the boundary where a real value flows into a
    complex one, its cotangent is real (the imaginary part moves nothing; docs/complex.md)."""
    if g is None or isinstance(x, (list, tuple, dict)):
        return g
    dtype = getattr(x, "dtype", None)
    real = not isinstance(x, complex) if dtype is None else dtype.kind != "c"
    return np.real(g) if real and np.iscomplexobj(g) else g


def _complex_entry(buffer, like, value):
    """A complex cotangent entry for a real buffer: its real part when the container is
    real, else the buffer made complex (it had only received real cotangents)."""
    value = real_for(value, like)
    if np.iscomplexobj(value):
        buffer = buffer.astype(np.result_type(buffer, value))
    return buffer, value


def cotangent_zeros(x):
    """An owned zero cotangent for parameter x (a float array or a float)."""
    if isinstance(x, np.ndarray):
        return np.zeros(x.shape, dtype=x.dtype if x.dtype.kind in "fc" else float)
    return np.zeros((), dtype=x.dtype) if isinstance(x, np.floating) else 0.0


def reused_cotangent(values, like):
    """`cotangent_zeros(like)` with `values` written into all of it, where the compiler
    showed values (a buffer the code owns, read by nobody after this) holds like's
    cotangent's values at their places (transform/optimize/reused_buffers.py): values
    itself when it is a writable array of the zeros' dtype (same shape, known), else
    such a copy, cast as the writes would cast (`float32` zeros, a float64 values)."""
    if type(values) is np.ndarray and type(like) is np.ndarray and values.flags.writeable \
            and values.dtype is (like.dtype if like.dtype.kind in "fc" else _FLOAT):
        return values
    out = cotangent_zeros(like)
    out[...] = values
    return out


_FLOAT = np.dtype(float)


# values that are data, not user objects (runtime/containers.py ARRAY_LIKE)
PLAIN_DATA = (np.ndarray, np.generic, int, float, complex, bool, list, tuple, dict)


def refuse_own_subscript(x):
    """`x[i]` on a user object runs its class's __getitem__, whose code is not
    differentiated: a TypeError (getitem_vjp's, and accumulate_at's for a read in a loop,
    where a list of the entries' cotangents handed to the object's pullback would be a
    silently wrong gradient). (np.shape on such an object may not end.) A user subclass
    of list, tuple, dict or ndarray that defines __getitem__ too (its entries' cotangents
    went to the stored entries, skipping its code); NumPy's own (np.matrix, np.memmap,
    masked arrays) index their data."""
    if own_method(type(x), "__getitem__"):
        raise SubscriptRefused(
            f"`[...]` on a {type(x).__name__} runs the class's own __getitem__, which "
            "reverse mode does not differentiate as a subscript Instead: call the method "
            "by name, `obj.__getitem__(i)` (the method of a class the function builds is "
            "differentiated like any other), or index the list or array the object holds "
            "(`obj.items[i]`)")


def own_method(cls, name):
    """Whether class `cls` defines method `name` in Python, outside NumPy (np.matrix,
    np.memmap and masked arrays index their data)."""
    method = getattr(cls, name, None)
    return inspect.isfunction(method) and method.__module__.partition(".")[0] != "numpy"


@helper(in_place=True)
def accumulate_at(buffer, like, index, value):
    """buffer[index] += value, allocating zeros shaped like `like` on first use.

    The backward sweep of `for x in xs` uses it to send dx back into dxs, and the one
    of `u[1:-1]` to add its cotangent into u's.
    """
    if type(buffer) is np.ndarray and type(value) is np.ndarray and \
            type(index) in _BASIC_INDEX and \
            (value.dtype.kind != "c" or buffer.dtype.kind == "c"):   # the hot path, first
        buffer[index] += value
        return buffer
    if buffer is None and type(like) is np.ndarray and type(value) is np.ndarray and \
            type(index) in _BASIC_INDEX and value.dtype.kind != "c":   # a step's first read
        buffer = np.zeros(like.shape, dtype=_buffer_dtype(like.dtype))
        buffer[index] = value           # 0 + value is value (-0.0 aside): no read, no add
        return buffer
    value = unthunk(value)
    if value is None:
        return buffer
    if buffer is None:
        refuse_own_subscript(like)
        if isinstance(like, dict):
            buffer = {}
        elif hasattr(like, "shape") and not isinstance(like, (list, tuple)):   # ShapeOnly too
            buffer = np.zeros(like.shape, dtype=_buffer_dtype(like.dtype))
        else:
            buffer = [None] * len(like)
    elif isinstance(buffer, tuple):
        buffer = list(buffer)
    if isinstance(buffer, dict):
        buffer[index] = add_values(buffer.get(index), value)
    elif isinstance(buffer, np.ndarray):
        if buffer.dtype.kind != "c" and np.iscomplexobj(value):
            buffer, value = _complex_entry(buffer, like, value)
        if type(index) is int or is_basic_index(index):     # `x[i]` in a loop: no call
            buffer[index] += value
        else:                       # `x[[0, 0]]` read twice: both reads add up
            np.add.at(buffer, index, value)
    else:
        buffer[index] = add_values(buffer[index], value)
    return buffer


def _buffer_dtype(dtype):
    """A float dtype holding cotangents of an array of `dtype` (ints take float16 up)."""
    found = _BUFFER_DTYPES.get(dtype)
    if found is None:
        found = _BUFFER_DTYPES[dtype] = np.result_type(dtype, np.float16)
    return found


_BUFFER_DTYPES = {}
_BASIC_INDEX = (int, slice)       # position types read at most once by x[index]


def is_basic_index(index):
    """Whether `x[index]` selects each position at most once (no integer arrays)."""
    if type(index) is int:                       # the common case, checked first
        return True
    parts = index if isinstance(index, tuple) else (index,)
    return all(p is None or p is Ellipsis or isinstance(p, (int, np.integer, slice))
               and not isinstance(p, bool) for p in parts)
