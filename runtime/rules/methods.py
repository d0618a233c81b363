"""ndarray methods: `x.name(...)` is differentiated as `METHODS[name](x, ...)`.

The compiler packs varargs methods (x.reshape(2, 3), x.transpose(1, 0)) into
one tuple, matching the function. x.sort() is mapped to np.sort, which returns
a sorted copy where the method sorts in place (and returns None). x.item(i) and
x.tolist() read entries as Python scalars (ndarray receivers only, dispatched at
run time by transform/dispatch.py); their cotangents are arrays again.
"""
import operator

import numpy as np

from ..registry import (LINEAR, SHAPE, declare_method, defmethod, defvjp, nondiff,
                        template_helper)
from .shape_helpers import cot_dtype
from ..thunks import unthunk
from .constructors import astype
from .shape import flatten
from . import gathers_helpers  # noqa: F401  (compress's template reads its helpers)


def compress(a, condition, axis=None, out=None):
    """`a.compress(condition, axis)` as a function: np.compress, the receiver first."""
    return np.compress(condition, a, axis, out)


METHODS = {
    # reductions and scans
    "sum": np.sum, "mean": np.mean, "prod": np.prod, "max": np.max, "min": np.min,
    "std": np.std, "var": np.var, "cumsum": np.cumsum, "cumprod": np.cumprod,
    "trace": np.trace, "any": np.any, "all": np.all,
    # shape
    "reshape": np.reshape, "ravel": np.ravel, "flatten": flatten, "transpose": np.transpose,
    "swapaxes": np.swapaxes, "squeeze": np.squeeze, "repeat": np.repeat,
    "diagonal": np.diagonal, "take": np.take, "sort": np.sort, "compress": compress,
    # values
    "dot": np.dot, "clip": np.clip, "round": np.round, "copy": np.copy, "astype": astype,
    "conj": np.conj, "conjugate": np.conjugate,
    # indices
    "argmax": np.argmax, "argmin": np.argmin, "argsort": np.argsort,
    "argpartition": np.argpartition, "nonzero": np.nonzero, "searchsorted": np.searchsorted,
}

# these may return a view of the receiver (where NumPy can): a write through either
# name shows through the other, which the alias check follows
_VIEWS = {"reshape", "ravel", "transpose", "swapaxes", "squeeze", "diagonal"}
for _name, _fn in METHODS.items():
    defmethod(_name, _fn, view=_name in _VIEWS)
declare_method("view", "__array__", view=True)
defvjp(compress, "a, condition, axis=None, out=None",
       "gather_vjp(g, a, np.compress(condition, entry_indices(a), axis))", None, None, None,
       jvp=LINEAR)

# these change the receiver in place, which the backward sweep cannot undo (the alias
# check refuses them); a string says what to write instead, `{0}` the receiver's name
declare_method("sort", in_place="`{0} = np.sort({0})`")
declare_method("partition", in_place="`{0} = np.partition({0}, kth)`")
declare_method("fill", "put", "resize", "itemset", "setfield", in_place=True)


def item(a, index=None):
    """`a.item()` / `a.item(i)` as a function: one entry as a Python scalar."""
    return np.asarray(a).item() if index is None else np.asarray(a).item(index)


def tolist(a):
    """`a.tolist()` as a function: nested lists of Python scalars."""
    return np.asarray(a).tolist()


@template_helper
def item_vjp(g, a, index):
    """Cotangent of `a.item(index)`: g at the entry read (a flat index or a tuple)."""
    out = np.zeros(np.shape(a), dtype=cot_dtype(0.0, a))
    if index is None:
        out[...] = g                                  # a size-1 array: its only entry
    elif isinstance(index, tuple):
        out[index] = g
    else:
        out.flat[index] = g
    return out


@template_helper
def tolist_vjp(g, a):
    """Cotangent of `a.tolist()`: the list cotangent (None for unused entries) as an array."""
    out = np.zeros(np.shape(a), dtype=cot_dtype(0.0, a))
    _fill(out, unthunk(g), ())
    return out


def _fill(out, g, at):
    if g is None:
        return
    if isinstance(g, (list, tuple)):
        for k, entry in enumerate(g):
            _fill(out, unthunk(entry), at + (k,))
    else:
        out[at] = g


defvjp(item, "a, index=None", "item_vjp(g, a, index)", None, complex_ok=True, jvp=LINEAR)
defvjp(tolist, "a", "tolist_vjp(g, a)", complex_ok=True, jvp=LINEAR)
# Not mapped by name like the methods above: a user object's own `item` or `tolist`
# is its method (compiled from source); an ndarray's is dispatched here at run time.
RUN_TIME_METHODS = {"item": item, "tolist": tolist}


@template_helper
def integer_shape(dims):
    """`n` in `r.reshape(3, n)` (or a whole shape) where r turned out an array: checked
    to be integers, which carry no derivative (a float raises, as NumPy would), so the
    argument is no differentiated value there (transform/lowering/shape_methods.py)."""
    for d in dims if isinstance(dims, (tuple, list)) else (dims,):
        operator.index(d)
    return dims


nondiff(integer_shape, why=SHAPE)
