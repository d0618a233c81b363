"""Values at the API boundary: input checks, gradients shaped like their arguments.

A float argument gets a float, an array an array of its shape and dtype, a
container the same container, a dataclass a dataclass; ints, bools and strings
inside containers get None.
"""
import dataclasses
import inspect
import numbers

import numpy as np

from runtime import unthunk
from runtime.accumulate import own_method

from .checks import refuse_integer_containers
from .field_reads import NotAField
from ..errors import TransformError


def _check_inputs(params, wrt_names, args, kwargs, complex_ok=False):
    """complex_ok: complex arguments are differentiated (jvp's, forward mode)."""
    for value in list(args) + list(kwargs.values()):
        refuse_masked(value)
    values = dict(zip(params, args))
    values.update({k: v for k, v in kwargs.items() if k in params})
    _check_values(wrt_names, [values.get(name) for name in wrt_names], complex_ok)


def named_for_user(exc, rrule, fn):
    """A TypeError binding a call's arguments to a generated rrule (`f(x=1.0)` for
    `def f(x, /)`: Python's own error, raised before the rule's code runs) names the
    user's function, as calling it plainly would, not the generated `f_rrule`."""
    generated = getattr(getattr(rrule, "__code__", None), "co_qualname", None)
    text = str(exc)
    if exc.__traceback__ is None or exc.__traceback__.tb_next is not None or \
            not generated or not text.startswith(generated + "()"):
        return exc                          # raised inside the rule: the user's code
    user = getattr(fn, "__qualname__", getattr(fn, "__name__", "the function"))
    return TypeError(user + "()" + text[len(generated) + 2:])


def unbindable(fn, args, kwargs, exc):
    """For a TypeError `exc` met calling fn's generated code: when args and kwargs cannot
    be bound to fn's own parameters, the TypeError naming fn (`f(): missing a required
    argument: 'y'`), as calling it plainly would, not the generated `f_grad_tan()` the
    user never wrote; else exc itself."""
    name = getattr(fn, "__qualname__", getattr(fn, "__name__", "the function"))
    if not isinstance(exc, TypeError) or str(exc).startswith(name + "()"):
        return exc                              # Python's own words already name fn
    try:
        inspect.signature(fn).bind(*args, **kwargs)
    except TypeError as mismatch:
        return TypeError(f"{name}(): {mismatch}")
    except ValueError:                          # no signature to bind to
        pass
    return exc


def refuse_unbindable(fn, args):
    """unbindable's TypeError up front (hvp: the routes call generated functions only)."""
    named = unbindable(fn, args, {}, TypeError())
    if named.args:
        raise named


def refuse_masked(value):
    """A masked array's operations skip masked entries, which the derivative rules
    (written for plain arrays) do not: a masked entry would get a gradient."""
    if isinstance(value, np.ma.MaskedArray):
        raise TransformError(
            "masked arrays (np.ma) are not supported: the derivative rules would give "
            "masked entries a gradient", hint="pass the data with the masked entries "
            "zeroed (`np.where(mask, 0.0, x)`) or selected (`x[~mask]`)")


def _check_values(wrt_names, wrt_values, complex_ok=False):
    """TypeError unless every value is a float, a float array or a container of them
    (or complex ones, if complex_ok)."""
    for name, value in zip(wrt_names, wrt_values):
        if type(value) is float or type(value) is np.ndarray and value.dtype.kind == "f":
            continue                                  # the common cases, checked first
        if _is_integer(value) or isinstance(value, (str, bytes)):
            raise TypeError(f"cannot differentiate with respect to {name!r}: it is "
                            f"{type(value).__name__}, not a float or float array")
        if _has_complex(value) and not complex_ok:
            raise TypeError(f"cannot differentiate with respect to {name!r}: complex "
                            "arguments are not supported (complex values inside the "
                            "function are; docs/complex.md): pass the real and imaginary "
                            "parts as two float arrays and build `a + 1j * b` inside")
        refuse_integer_containers((name,), (value,))
        refuse_own_iteration(name, value)


def refuse_own_iteration(name, value):
    """A list, tuple or dict subclass (or one inside a container) whose class defines
    __iter__: unpacking, `sum`, `list`, np.stack and loops see the values its code makes,
    while the gradient goes to the stored entries (a silently wrong gradient)."""
    if isinstance(value, (list, tuple, dict)):
        if own_method(type(value), "__iter__"):
            raise TypeError(f"cannot differentiate with respect to {name!r}: it is a "
                            f"{type(value).__name__}, whose class defines __iter__ "
                            "(thunkgrad does not differentiate that code): pass a plain "
                            "list, tuple or dict of the values")
        for part in value.values() if isinstance(value, dict) else value:
            refuse_own_iteration(name, part)


def _has_complex(value):
    """Whether a value, or any leaf of a container, is complex."""
    if isinstance(value, (list, tuple)):
        return any(_has_complex(v) for v in value)
    if isinstance(value, dict):
        return any(_has_complex(v) for v in value.values())
    if isinstance(value, np.ndarray):
        return value.dtype.kind == "c"
    return isinstance(value, (complex, np.complexfloating))


def _is_integer(value):
    if isinstance(value, (bool, numbers.Integral)):
        return True
    return isinstance(value, np.ndarray) and value.dtype.kind in "biu"


def materialise(cotangent, like):
    """A gradient shaped and typed like its argument: float for float, same dtype arrays."""
    if type(cotangent) is np.ndarray and type(like) is np.ndarray \
            and cotangent.shape == like.shape and cotangent.dtype == like.dtype \
            and cotangent is not like and cotangent.flags.writeable:
        return cotangent                   # the common case, as the array path below ends
    kind = type(like)
    if kind in _FLOAT_SCALARS and type(cotangent) in _FLOAT_SCALARS:   # a real scalar's
        return cotangent if type(cotangent) is kind else kind(cotangent)   # as its type
    g = unthunk(cotangent)
    if isinstance(like, tuple) and hasattr(like, "_fields"):
        return _namedtuple_gradient(g, like)
    if isinstance(like, (tuple, list)):
        parts = g if g is not None else [None] * len(like)
        return type(like)(_leaf(c, x) for c, x in zip(parts, like))
    if isinstance(like, dict):
        parts = g if g is not None else {}
        return {k: _leaf(parts.get(k), v) for k, v in like.items()}
    if _is_user_object(like):
        if isinstance(g, (np.ndarray, np.generic, numbers.Number)):
            raise TypeError(object_read_whole(type(like).__name__))
        return _object_gradient(g or {}, like)
    if isinstance(like, np.ndarray):
        if g is None:
            return np.zeros_like(like, dtype=like.dtype if like.dtype.kind == "f" else float)
        out = _real_part(np.asarray(g))
        dtype = like.dtype if like.dtype.kind in "fc" else out.dtype
        if out.shape != like.shape:
            out = np.broadcast_to(out, like.shape)
        if out is g and out.flags.writeable and out.dtype == dtype and out is not like:
            return out
        return np.array(out, dtype=dtype)
    if isinstance(like, np.floating):
        return type(like)(0.0 if g is None else _real_part(np.asarray(g)).item())
    if g is None:
        return 0.0
    return float(_real_part(np.asarray(g)).item()) if np.size(g) == 1 else g


def object_read_whole(cls):
    """The message for an object whose cotangent came back as a number or an array."""
    return (f"a {cls} object was given whole to a NumPy function or to arithmetic "
            f"(`np.sum(obj)`): NumPy read it through the class's own __array__, __iter__ "
            "or __getitem__, which thunkgrad does not differentiate. Instead: apply the "
            "function to the arrays the object holds (`np.sum(obj.w)`), or give it a "
            "method that does (`obj.total()`)")


def _is_user_object(like):
    """An object read by attribute: one with a __dict__, or one of a class with __slots__
    (its cotangent is a dict by attribute all the same)."""
    if isinstance(like, (np.ndarray, np.generic, numbers.Number, str, bytes)):
        return False
    return hasattr(like, "__dict__") or dataclasses.is_dataclass(like) or \
        any("__slots__" in vars(c) for c in type(like).__mro__[:-1])


def _real_part(g):
    """A real argument's gradient is the real part of its cotangent (docs/complex.md)."""
    return g.real if g.dtype.kind == "c" else g


def _namedtuple_gradient(g, like):
    """A namedtuple's gradient, itself a namedtuple: read by field (`p.w`, a dict of
    field cotangents) or by position (`p[0]`, a tuple)."""
    if isinstance(g, dict):
        g = [g.get(field) for field in like._fields]
    parts = g if g is not None else [None] * len(like)
    return type(like)(*[_leaf(c, x) for c, x in zip(parts, like)])


def _leaf(g, like):
    """A container entry's gradient; integers, booleans and strings get None."""
    if isinstance(like, (bool, numbers.Integral, str, bytes)) or like is None:
        return None
    return materialise(g, like)


def _object_gradient(g, like):
    """An object's gradient: a dataclass of the same type, else a dict by attribute."""
    fields = {k: _leaf(v, getattr(like, k)) for k, v in g.items()}
    if dataclasses.is_dataclass(like):
        fields = _record_fields(fields, like)
        zeros = {f.name: _leaf(None, getattr(like, f.name))
                 for f in dataclasses.fields(like) if f.name not in fields}
        return dataclasses.replace(like, **fields, **zeros)
    return fields


def _record_fields(fields, like):
    """A dataclass's field gradients; an attribute that is no field (set by
    __post_init__ or later) with a nonzero cotangent is refused: its part of the fields'
    gradient passes through code the compiler never saw (field_reads.py: at the user's
    read of it where the caller knows the function)."""
    names = {f.name for f in dataclasses.fields(like)}
    for other in [k for k in fields if k not in names]:
        if fields[other] is not None and np.any(np.asarray(fields[other]) != 0):
            raise NotAField("grad", like, other, "gradient")
    return {k: v for k, v in fields.items() if k in names}


def _seed(out):
    if isinstance(out, np.ndarray):
        return np.ones_like(out)
    if isinstance(out, np.generic):
        return type(out)(1)
    return 1.0


_FLOAT_SCALARS = frozenset({float, np.float64, np.float32, np.float16, np.longdouble})


def _is_scalar(out):
    if type(out) in _FLOAT_SCALARS:
        return True
    if isinstance(out, (numbers.Real,)) and not isinstance(out, bool):
        return True
    return isinstance(out, np.ndarray) and out.ndim == 0 and out.dtype.kind == "f" or \
        isinstance(out, np.floating)


def refuse_inplace_args(compiled, params, args, kwargs):
    """`p += v` on a parameter whose argument is an ndarray, list or dict changes the
    caller's data in place: refused before the rule runs (the compiler could not tell
    the argument's type; a number is fine)."""
    values = dict(zip(params, args))
    values.update(kwargs)
    for name, error in compiled.inplace_args.items():
        if isinstance(values.get(name), (np.ndarray, list, dict)):
            raise error.with_traceback(None)
