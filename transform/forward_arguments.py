"""jvp's tangent arguments checked against their primals (structure, shape, dtype): a
tuple, list, dict or dataclass record of the primal's shape, in its dtype; the public
faces (jvp, hvp, derivatives of derivatives) call `_like` before anything runs."""
import copy
import dataclasses
import functools

import numpy as np

from runtime.forward import zero_tangent

from .public.field_reads import NotAField


def primals_tuple(primals, entry):
    """jvp(f, x, (v,)) would take x's rows as the arguments: a TypeError instead."""
    if not isinstance(primals, (tuple, list)):
        raise TypeError(f"{entry}: primals must be a tuple of the arguments, e.g. "
                        f"{entry}(f, (x,), (v,)), got {type(primals).__name__}")
    return tuple(primals)


def _tangents(names, tangents):
    if not isinstance(tangents, (tuple, list)) or len(tangents) != len(names):
        raise TypeError(f"jvp: tangents must be a tuple with one entry per differentiated "
                        f"argument ({', '.join(names)}: {len(names)}), got "
                        f"{type(tangents).__name__}"
                        + (f" of {len(tangents)}" if isinstance(tangents, (tuple, list))
                           else ""))
    return tuple(tangents)


def _like(name, primal, tangent, where="", entry="jvp"):
    """The tangent checked against its primal's structure and shape, in its dtype
    (`entry`: the public face the errors name, jvp or hvp)."""
    label = f"the tangent of {name!r}{where}"
    if isinstance(primal, (tuple, list)) and not isinstance(primal, np.ndarray):
        if not isinstance(tangent, (tuple, list)) or len(tangent) != len(primal):
            raise ValueError(f"{entry}: {label} must be a {type(primal).__name__} of "
                             f"{len(primal)} entries, like the argument")
        parts = [_like(name, p, t, f"{where}[{k}]", entry)
                 for k, (p, t) in enumerate(zip(primal, tangent))]
        return type(primal)(*parts) if hasattr(primal, "_fields") else type(primal)(parts)
    if isinstance(primal, dict):
        if not isinstance(tangent, dict) or set(tangent) != set(primal):
            raise ValueError(f"{entry}: {label} must be a dict with the argument's keys")
        return {k: _like(name, p, tangent[k], f"{where}[{k!r}]", entry) for k, p in primal.items()}
    if np.iscomplexobj(tangent) and not np.iscomplexobj(primal):
        raise TypeError(f"{entry}: {label} is complex but the argument is real; a real "
                        "argument's tangent is real (pass a complex argument to move it "
                        "off the real line)")
    if np.iscomplexobj(primal):
        return _complex_like(label, primal, tangent, entry)
    if dataclasses.is_dataclass(primal) and not isinstance(primal, type):
        return _record_like(name, primal, tangent, where, entry)
    if isinstance(primal, (bool, int, np.integer, np.bool_, str, type(None))):
        return zero_tangent(primal)  # an int or other non-float entry: a zero tangent
    if not isinstance(primal, (float, np.floating, np.ndarray)):
        raise TypeError(f"{entry}: {label}: a {type(primal).__name__} argument has no tangent "
                        "forward mode can take; pass its arrays (or a dataclass, tuple, "
                        "list or dict of them)")
    if np.shape(tangent) != np.shape(primal):
        raise ValueError(f"{entry}: {label} has shape {np.shape(tangent)}, the argument "
                         f"{np.shape(primal)}")
    if isinstance(primal, np.ndarray):
        return np.asarray(tangent, dtype=primal.dtype)
    return type(primal)(tangent) if isinstance(primal, np.floating) else float(tangent)


def _record_like(name, primal, tangent, where, entry):
    """A dataclass argument's tangent: the same class, each field's tangent checked."""
    if type(tangent) is not type(primal):
        raise ValueError(f"{entry}: the tangent of {name!r}{where} must be a "
                         f"{type(primal).__name__}, like the argument")
    out = copy.copy(tangent)
    fields = [f.name for f in dataclasses.fields(primal)]
    for field in fields:
        value = _like(name, getattr(primal, field), getattr(tangent, field),
                      f"{where}.{field}", entry)
        object.__setattr__(out, field, value)
    for other in [n for n in getattr(primal, "__dict__", ()) if n not in fields]:
        if _cached(primal, other):      # a cached_property's value: read through its
            vars(out).pop(other, None)  # getter's tangent (runtime attribute_tangent)
            continue
        if _floats_in(getattr(primal, other)):      # set by __post_init__: computed, its
            raise NotAField(entry, primal, other, "tangent")   # tangent no field's
        object.__setattr__(out, other, zero_tangent(getattr(primal, other)))
    return out


def _cached(primal, name):
    return isinstance(getattr(type(primal), name, None), functools.cached_property)


def _floats_in(value, depth=0):
    """Whether value may hold a float or complex number (another object: may)."""
    if isinstance(value, (bool, int, str, bytes, type(None), np.bool_, np.integer)):
        return False
    if isinstance(value, (float, complex, np.inexact)):
        return True
    if isinstance(value, np.ndarray):
        return value.dtype.kind in "fcO"
    if isinstance(value, (tuple, list, dict)) and depth < 8:
        items = value.values() if isinstance(value, dict) else value
        return any(_floats_in(v, depth + 1) for v in items)
    return True


def _complex_like(label, primal, tangent, entry):
    """A complex argument's tangent: its shape, in its dtype."""
    if np.shape(tangent) != np.shape(primal):
        raise ValueError(f"{entry}: {label} has shape {np.shape(tangent)}, the argument "
                         f"{np.shape(primal)}")
    if isinstance(primal, np.ndarray):
        return np.asarray(tangent, dtype=primal.dtype)
    return type(primal)(tangent)
