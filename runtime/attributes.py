"""An attribute write as a new object: `obj.name = v` on an object the function made.

    b.state = v        ->   b = with_attribute(b, "state", v)      (frontend/attribute_writes.py)

The new object is a shallow copy of `obj` with `name` set; the compiler rewrites the
write so only when no other name, container or loop sees the old object, so the copy
is never observed. The rule splits the new object's cotangent (a dict by attribute
name, as getattr_vjp gives) into the old object's (without `name`) and v's.
"""
import copy

import numpy as np

from .registry import rrule, template_helper
from .thunks import unthunk


def with_attribute(obj, name, value):
    """A copy of `obj` whose attribute `name` is `value` (obj is left as it was)."""
    new = copy.copy(obj)
    setattr(new, name, value)
    return new


def with_attribute_jvp(tangents, obj, name, value):
    """The tangent of with_attribute(obj, name, value): obj's tangent (an object of its
    class holding its attributes' tangents; zeros where it has none) with `name` set to
    value's tangent (runtime/forward.py's convention for objects)."""
    from .forward import zero_tangent
    t_obj, _, t_value = tangents
    base = _zero_object(obj) if t_obj is None else t_obj
    return with_attribute(base, name, zero_tangent(value) if t_value is None else t_value)


def _zero_object(obj):
    """zero_tangent's zero, or for a plain instance a shallow copy holding its
    attributes' zeros."""
    from .forward import zero_tangent
    zero = zero_tangent(obj)
    if zero is None and hasattr(obj, "__dict__"):
        zero = copy.copy(obj)
        for key, value in vars(obj).items():
            object.__setattr__(zero, key, zero_tangent(value))
    return zero


@rrule(with_attribute, complex_ok=True, jvp=with_attribute_jvp)     # structural: linear
def _with_attribute_rule(obj, name, value):
    def pullback(g):
        g = unthunk(g)
        if g is None:
            return None, None, None
        if not isinstance(g, dict):               # an object-like cotangent: by attribute
            g = dict(vars(g))
        rest = {k: v for k, v in g.items() if k != name}
        return rest or None, None, unthunk(g.get(name))
    return with_attribute(obj, name, value), pullback


def call_writing_self(method, obj, /, *args, **kwargs):
    """(method's result, the object after it): `method` runs on a copy of `obj`, whose
    attributes it sets (`self.h = ...`); obj is left as it was."""
    new = copy.copy(obj)
    return method(new, *args, **kwargs), new


_NO_DERIVATIVE = (int, np.integer, np.bool_, np.dtype, str, type, type(None))


@template_helper
def array_metadata(x, name, refusal):
    """`x.shape` (or .size, .ndim, .dtype, ...) compiled as an array's, without a
    derivative, where the compiler could not tell x is an array (transform/analysis/
    metadata.py): an array's (ints, a dtype) carries none; another object's that may
    carry one (a float, an array) is refused here."""
    value = getattr(x, name)
    if _integral(value):
        return value
    raise TypeError(refusal)


def _integral(value):
    """Whether `value` (an int, a dtype, a tuple of ints, ...) can carry no derivative."""
    if isinstance(value, (tuple, list)):
        return all(_integral(v) for v in value)
    return isinstance(value, _NO_DERIVATIVE)
