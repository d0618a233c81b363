"""The tape and the helpers the backward sweep uses to replay loops.

The forward sweep pushes onto a plain list (`tape.append`); the backward sweep
reads it from the end with a reader, so a pullback can run more than once.
"""
from itertools import islice

import numpy as np

from .accumulate import own_method
from .registry import helper


def tape_reader(tape):
    """A function returning the tape's entries last-in first-out, without consuming it."""
    return reversed(tape).__next__


def popped(pop, n=None):
    """The entries a tape reader `pop` would return next (the next n of them), as an
    iterator: a backward loop reads them in its header instead of calling pop."""
    entries = pop.__self__                  # the reversed-list iterator behind the reader
    return entries if n is None else islice(entries, n)


def iterable(x):
    """What a `for` loop iterates over, kept so the backward sweep can walk it again.

    Arrays, tuples, ranges and strings are kept as they are (no copy); a list is
    copied (its pointers: a list appended to after the loop, `ks.append(k)` in an outer
    loop of Runge-Kutta stages, would otherwise give the backward sweep its later
    length, and a cotangent list longer than the list was); anything else
    (generators, dict views, zip objects) is listed once. A user subclass
    of list, tuple or ndarray with its own __getitem__ is listed (the backward sweep
    slices it: its code would run); one with its own __iter__ yields values of its
    code's making, not its entries, whose cotangents would skip that code: refused.
    """
    if isinstance(x, (np.ndarray, list, tuple, range, str)):
        if own_method(type(x), "__iter__"):
            raise TypeError(f"a loop over a {type(x).__name__} runs the class's own "
                            "__iter__, which thunkgrad does not differentiate: loop over "
                            "a plain list or array of the values instead")
        if not own_method(type(x), "__getitem__"):
            return list(x) if isinstance(x, list) else x
    return list(x)


@helper(count_arg=1)
def reversed_prefix(seq, n):
    """The first `n` items of `seq`, last first. A list or tuple is read in place, by
    position (no copies: the backward sweep only pops entries appended after them, and
    an entry gone would raise, never be skipped); an array's or range's slice is a view."""
    if type(seq) is list or type(seq) is tuple:
        return map(seq.__getitem__, range(n - 1, -1, -1))
    return seq[:n][::-1]


@helper(count_arg=1)
def reversed_enumerate(seq, n, start=0):
    """`enumerate(seq, start)` for the first `n` items, last first."""
    return zip(range(start + n - 1, start - 1, -1), reversed_prefix(seq, n))


@helper(count_arg=0)
def reversed_zip(n, *seqs):
    """`zip(*seqs)` for the first `n` tuples, last first."""
    return zip(*[reversed_prefix(s, n) for s in seqs])


helper(count_arg=0)(range)       # a backward loop's `range(n)` header counts n


def reversed_indices(n):
    """Positions n - 1, ..., 0: the backward sweep's walk over an active iterable."""
    return range(n - 1, -1, -1)


class ShapeOnly:
    """Stands in on the tape for a value the backward sweep reads only for its shape.

    One shared instance per (shape, dtype), so a loop of n iterations adds n
    references to the tape, not n arrays.
    """

    __slots__ = ("shape", "dtype", "ndim")

    def __init__(self, shape, dtype):
        self.shape, self.dtype, self.ndim = shape, dtype, len(shape)

    def __len__(self):
        return self.shape[0]

    def __repr__(self):
        return f"ShapeOnly({self.shape}, {self.dtype})"


_SHAPES = {}


def unviewed(x):
    """`x`, or its own copy if it is a view into another array (which an element store
    the backward sweep runs after would change)."""
    return x.copy() if type(x) is np.ndarray and x.base is not None else x


def shape_only(x):
    """`x` itself if it is a Python scalar or container, else a shared ShapeOnly."""
    if isinstance(x, (np.ndarray, np.generic)):
        key = (x.shape, x.dtype)
        proxy = _SHAPES.get(key)
        if proxy is None:
            proxy = _SHAPES[key] = ShapeOnly(x.shape, x.dtype)
        return proxy
    return x
