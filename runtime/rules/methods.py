"""ndarray methods: `x.name(...)` is differentiated as `METHODS[name](x, ...)`.

The compiler packs varargs methods (x.reshape(2, 3), x.transpose(1, 0)) into
one tuple, matching the function. x.sort() is mapped to np.sort, which returns
a sorted copy where the method sorts in place (and returns None).
"""
import numpy as np

from ..registry import defmethod
from .constructors import astype
from .shape import flatten

METHODS = {
    # reductions and scans
    "sum": np.sum, "mean": np.mean, "prod": np.prod, "max": np.max, "min": np.min,
    "std": np.std, "var": np.var, "cumsum": np.cumsum, "cumprod": np.cumprod,
    "trace": np.trace, "any": np.any, "all": np.all,
    # shape
    "reshape": np.reshape, "ravel": np.ravel, "flatten": flatten, "transpose": np.transpose,
    "swapaxes": np.swapaxes, "squeeze": np.squeeze, "repeat": np.repeat,
    "diagonal": np.diagonal, "take": np.take, "sort": np.sort,
    # values
    "dot": np.dot, "clip": np.clip, "round": np.round, "copy": np.copy, "astype": astype,
    "conj": np.conj, "conjugate": np.conjugate,
    # indices
    "argmax": np.argmax, "argmin": np.argmin, "argsort": np.argsort,
    "argpartition": np.argpartition, "nonzero": np.nonzero, "searchsorted": np.searchsorted,
}

for _name, _fn in METHODS.items():
    defmethod(_name, _fn)
