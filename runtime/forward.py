"""What generated forward-mode (`<name>_jvp`) code needs at run time beside the rules'
JVP terms: a zero tangent shaped like a value, and an element store into a tangent that
never writes into an array someone else holds.

    w = np.zeros(3)            w_dot = zero_tangent(w)
    w[0] = y                   w_dot = stored_tangent(w_dot, 0, y_dot)
"""
import collections.abc
import copy
import dataclasses
import functools
import inspect
import threading
import types

import numpy as np

from .complex_safety import AttributeRefused
from .operators import user_class
from .same_value import same_value


def zero_tangent(value):
    """A zero tangent for `value`: float zeros of an array's shape (its dtype if it is a
    float array), 0.0 for a number, the same structure for tuples, lists, dicts and
    dataclass records and user objects (_object_zero); None for what carries no
    derivative (strings, None, functions, other objects)."""
    if isinstance(value, np.ndarray):
        return np.zeros(value.shape, value.dtype if value.dtype.kind in "fc" else float)
    if isinstance(value, (bool, np.bool_)):
        return None
    if isinstance(value, (np.floating, np.complexfloating)):
        return type(value)(0.0)
    if isinstance(value, (int, float, np.integer)):
        return 0.0
    if isinstance(value, complex):          # `v + 0j`: was None, and `v_dot + None` failed
        return 0j
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        return type(value)(*[zero_tangent(v) for v in value])
    if isinstance(value, (tuple, list)):
        return type(value)(zero_tangent(v) for v in value)
    if isinstance(value, range):            # its entries' zeros, walked beside it
        return Zeros(len(value))
    if isinstance(value, dict):
        return {k: zero_tangent(v) for k, v in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        zero = copy.copy(value)             # a record: its fields' zeros, __init__ not run,
        names = [f.name for f in dataclasses.fields(value)]     # and what __post_init__
        for name in names + [n for n in getattr(value, "__dict__", ()) if n not in names]:
            object.__setattr__(zero, name, zero_tangent(getattr(value, name)))    # set
        return zero
    return _object_zero(value)


_BUILDING = threading.local()


def _object_zero(value):
    """A user object's zero tangent: an object of its class (its __init__ not run)
    holding its attributes' zeros, as a method's `self_dot` reads them; None for other
    objects (functions, modules, the library's) and for an object met again inside
    itself (a cycle)."""
    cls = type(value)
    if not user_class(cls) or not hasattr(value, "__dict__") or \
            (cls.__module__ or "").split(".")[0] in ("runtime", "transform"):
        return None
    seen = _BUILDING.__dict__.setdefault("ids", set())
    if id(value) in seen:
        return None
    seen.add(id(value))
    try:
        zero = object.__new__(cls)
        for name, attribute in vars(value).items():
            object.__setattr__(zero, name, zero_tangent(attribute))
    except TypeError:                   # a class object.__new__ cannot make
        return None
    finally:
        seen.discard(id(value))
    return zero


def stored_tangent(tangent, index, value):
    """A copy of `tangent` with `value` stored at `index` (`tangent[index] = value` on
    the copy): the tangent may be the caller's array or share memory with another
    name's tangent, so it is never written in place."""
    if isinstance(tangent, list):
        copied = list(tangent)
    elif isinstance(tangent, dict):
        copied = dict(tangent)
    else:
        copied = np.array(tangent, copy=True)
    copied[index] = value
    return copied


def broadcast_to_output(value, ans):
    """`value` broadcast to the shape of the array `ans` (an elementwise rule's tangent
    term, runtime/jvp.py DIAGONAL); a container output (`xs + ys` on lists) is refused,
    since its shape is not the arguments' broadcast."""
    if isinstance(ans, (list, tuple, dict)):
        raise TypeError(f"forward mode: an elementwise rule produced a "
                        f"{type(ans).__name__}; its tangent is not the arguments' "
                        "broadcast (concatenate with np.concatenate, or use vjp)")
    shape = np.shape(ans)
    return value if np.shape(value) == shape else np.broadcast_to(value, shape)


def receiver_tangent(tangent, receiver):
    """The tangent of an ndarray method's receiver (`h.mean()`), of a kind that has the
    method: a NumPy scalar's tangent may be a Python float."""
    if isinstance(receiver, (np.ndarray, np.generic)) and \
            not isinstance(tangent, (np.ndarray, np.generic)):
        return np.asarray(tangent)
    return tangent


def attribute_tangent(tangent, obj, name):
    """The tangent of `obj.name` for a stored attribute (a dataclass's or NamedTuple's
    field, an instance's own attribute): the same attribute of the tangent object, which
    forward mode built from the fields' tangents; a `@property` or
    functools.cached_property with a Python getter: the getter's own tangent (compiled by
    the public face; the tangent object's own attribute would be the getter run on the
    tangents); another computed attribute is refused."""
    if isinstance(obj, np.ndarray) and name in _LINEAR_ARRAY_ATTRIBUTES:
        return getattr(np.asarray(tangent), name)
    if isinstance(obj, (np.generic, complex, float)) and name in ("real", "imag"):
        return getattr(tangent, name) if hasattr(tangent, name) else \
            getattr(np.asarray(tangent), name)          # a number's parts (R-linear)
    if isinstance(obj, np.ndarray) and name in _ARRAY_METADATA:
        return zero_tangent(getattr(obj, name))       # `q.shape`: no derivative
    if _class_constant(obj, name):                  # `self.eps`, a class's own value
        return zero_tangent(getattr(obj, name))
    if _bound_method(obj, name):                    # `step = model.forward`: the
        return tangent                              # receiver's tangent
    if _result_entry(obj, tangent, name):           # scipy's OdeResult: `sol.y`
        return tangent[name] if name in tangent else zero_tangent(obj[name])
    if not _stored_attribute(obj, name):
        getter = _python_getter(obj, name)
        if getter is not None and "getter_jvp" in PROVIDED:
            value, dot = PROVIDED["getter_jvp"](getter, obj, tangent)
            _check_cached(obj, name, value)
            return dot
        raise AttributeRefused(f"forward mode: `.{name}` of {type(obj).__name__} is "
                               "computed by code, which forward mode does not "
                               "differentiate yet Instead: read the fields it is computed "
                               "from, or use vjp")
    return getattr(tangent, name)


def _check_cached(obj, name, value):
    """A cached_property's value already in obj.__dict__ (cached before the call) has the
    getter's tangent only if it is the getter's value now; else (set by hand, fields
    changed since) refused, as reverse mode's computed_attribute_vjp does."""
    cached = getattr(obj, "__dict__", {}).get(name, _MISSING)
    if cached is not _MISSING and not same_value(cached, value):
        raise TypeError(f"no derivative through .{name} of a {type(obj).__name__}: its "
                        "cached value is not what its getter gives now (set by hand, or "
                        "state that changed); compute it in the function instead")


# getter_jvp(getter, obj, tangent) -> (getter(obj), its tangent): the public face's
# (transform/forward_api.py compiles the getter's `_jvp`); runtime never imports it
PROVIDED = {}


def _result_entry(obj, tangent, name):
    """Whether `obj.name` reads an entry of a dict whose attributes are its entries
    (scipy's OptimizeResult and OdeResult): its tangent is then a dict by entry, as the
    rule gave it (solve_ivp_jvp's {"y": ...}; an entry it leaves out has none)."""
    return isinstance(obj, dict) and isinstance(tangent, dict) and name in obj and \
        getattr(type(obj), "__getattr__", None) is not None


def _python_getter(obj, name):
    """The Python getter of a `@property` or functools.cached_property of obj's class,
    or None."""
    descriptor = getattr(type(obj), name, None)
    getter = descriptor.fget if isinstance(descriptor, property) else \
        descriptor.func if isinstance(descriptor, functools.cached_property) else None
    return getter if isinstance(getter, types.FunctionType) else None


_LINEAR_ARRAY_ATTRIBUTES = ("T", "mT", "real", "imag")   # transposes, the parts (R-linear)
_ARRAY_METADATA = ("shape", "ndim", "size", "dtype", "itemsize", "nbytes", "strides")


def _class_constant(obj, name):
    """Whether `obj.name` reads a value its class holds (`eps = 1e-8` in the class body),
    no descriptor and not shadowed by the object's own attribute: shared by every
    instance, it carries no derivative."""
    if name in getattr(obj, "__dict__", ()) or isinstance(obj, (np.ndarray, np.generic)):
        return False
    value = inspect.getattr_static(type(obj), name, _MISSING)
    return value is not _MISSING and not hasattr(type(value), "__get__") and \
        not isinstance(obj, tuple)


_MISSING = object()


def _bound_method(obj, name):
    """Whether `obj.name` is a method defined with def in obj's (user) class, bound to
    obj: its tangent is obj's (called, forward_closures.lowered passes it as the
    receiver's)."""
    if isinstance(obj, (type, np.ndarray, np.generic, dict, list, tuple)) or \
            name in getattr(obj, "__dict__", ()):
        return False
    return isinstance(inspect.getattr_static(type(obj), name, None), types.FunctionType)


def _stored_attribute(obj, name):
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return name in {f.name for f in dataclasses.fields(obj)} or \
            name in getattr(obj, "__dict__", ()) and not hasattr(type(obj), name)
    if isinstance(obj, tuple) and hasattr(obj, "_fields"):
        return name in obj._fields
    descriptor = getattr(type(obj), name, None)
    if isinstance(descriptor, functools.cached_property):
        return False            # its value, cached in __dict__ or not, computed by code
    return name in getattr(obj, "__dict__", ()) and not hasattr(descriptor, "__set__")


def dict_items_guard(seq, refusal):
    """In `for k, v in seq.items():` forward code reads v's tangent as seq_dot[k], which
    holds for a dict; another object's `.items()` raises the compiler's refusal (a
    TransformError at the loop's line)."""
    if not isinstance(seq, dict):
        raise refusal


class Zeros(collections.abc.Sequence):
    """A range's tangent: `n` float zeros, none stored. enumerate's counter is
    `range(start, 2 ** 62)` (lowering/normalize_loops.py), walked in a zip beside shorter
    sequences; a list of its zeros would not fit in memory."""
    __slots__ = ("n",)

    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, k):
        if isinstance(k, slice):
            return Zeros(len(range(self.n)[k]))
        range(self.n)[k]                    # IndexError as a list's
        return 0.0

    def __eq__(self, other):
        return isinstance(other, Zeros) and other.n == self.n or \
            isinstance(other, list) and len(other) == self.n and not any(other)

    __hash__ = None

    def __repr__(self):
        return f"Zeros({self.n})"
