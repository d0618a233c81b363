"""has_aux=True (grad, value_and_grad, vjp): `fn` returns `(value, aux)`, as in JAX.

The function is compiled as written: its output is the pair. Its pullback is given the
cotangent `(g, None)`, None being the zero cotangent of aux, so nothing flows back from
aux and aux is returned exactly as the primal computed it (arrays, containers, strings,
anything). What aux reads is computed in the forward sweep like any other value, so a
value being differentiated that reaches a function without a derivative rule is refused
there as it would be anywhere else in the function.

    grad(f, has_aux=True)(x)             -> (gradient, aux)
    value_and_grad(f, has_aux=True)(x)   -> ((value, aux), gradient)
    vjp(f, x, has_aux=True)              -> (value, pullback, aux), aux's arrays copies
"""
import copy
import dataclasses

import numpy as np

from .checks import describe_output


def split_aux(fn, out, copied=False):
    """(value, aux) of what `fn` returned, or a TypeError naming fn and what it returned.
    copied=True (vjp, whose pullback runs later): aux's arrays are copies, so a write into
    one cannot change a value the backward sweep still reads."""
    if isinstance(out, (tuple, list)) and len(out) == 2:
        return out[0], (copied_arrays(out[1]) if copied else out[1])
    name = getattr(fn, "__qualname__", None) or getattr(fn, "__name__", repr(fn))
    code = getattr(fn, "__code__", None)
    where = f" ({code.co_filename}:{code.co_firstlineno})" if code is not None else ""
    raise TypeError(f"has_aux=True: {name}{where} must return a pair (value, aux), but it "
                    f"returned {describe_output(out)}; return `value, aux`, or drop "
                    "has_aux=True")


def copied_arrays(value):
    """value with its arrays copied (inside tuples, lists, dicts and dataclass instances
    too); the rest as is."""
    if isinstance(value, np.ndarray):
        return value.copy()
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        return type(value)(*[copied_arrays(v) for v in value])
    if type(value) in (tuple, list):
        return type(value)(copied_arrays(v) for v in value)
    if type(value) is dict:
        return {k: copied_arrays(v) for k, v in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _copied_record(value)
    return value


def _copied_record(value):
    """A shallow copy of a dataclass instance with its fields' arrays copied (frozen
    ones too; __init__ and __post_init__ do not run again)."""
    made = copy.copy(value)
    for field in dataclasses.fields(value):
        object.__setattr__(made, field.name, copied_arrays(getattr(value, field.name)))
    return made


def value_pullback(pullback, out):
    """The pullback of the pair's value alone: aux gets a zero (None) cotangent."""
    as_list = isinstance(out, list)

    def pullback_of_value(g):
        return pullback([g, None] if as_list else (g, None))
    return pullback_of_value
