"""grad / value_and_grad / vjp's `memory_limit=`: parsing it, and the copy of the
function that carries it to the compiler (transform/frontend/checkpointed_auto.py)."""
import re
import types
import weakref

from .parameters import _rule_for, _unwrap

_UNITS = {"": 1, "b": 1, "kb": 10**3, "mb": 10**6, "gb": 10**9, "tb": 10**12,
          "kib": 2**10, "mib": 2**20, "gib": 2**30, "tib": 2**40}
_COPIES = weakref.WeakKeyDictionary()      # fn -> {limit: its copy carrying the limit}


def parse_memory_limit(value):
    """Bytes from an int or a string like "2GB", "500MB", "1.5GiB"; None stays None."""
    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        return value
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*", value) \
        if isinstance(value, str) else None
    if m is None or m.group(2).lower() not in _UNITS or float(m.group(1)) <= 0:
        raise ValueError(f"memory_limit needs a positive number of bytes or a string "
                         f"like '2GB', '500MB', '1.5GiB', not {value!r}")
    return int(float(m.group(1)) * _UNITS[m.group(2).lower()])


def limited(plain, memory_limit, policy):
    """(the function grad compiles, the policy): with a limit, a copy of plain's
    function carrying it (cached per limit), the policy `differentiable` gave kept."""
    limit = parse_memory_limit(memory_limit)
    fn, default = _unwrap(plain)
    if limit is None or not isinstance(fn, types.FunctionType) or \
            _rule_for(fn) is not None:
        return plain, policy
    copies = _COPIES.setdefault(fn, {})
    if limit not in copies:
        made = types.FunctionType(fn.__code__, fn.__globals__, fn.__name__,
                                  fn.__defaults__, fn.__closure__)
        made.__dict__.update(fn.__dict__)
        made.__kwdefaults__, made.__qualname__ = fn.__kwdefaults__, fn.__qualname__
        made.__module__, made.__doc__ = fn.__module__, fn.__doc__
        made.thunkgrad_memory_limit = limit
        made.thunkgrad_unlimited = weakref.ref(fn)
        copies[limit] = made
    return synced(copies[limit]), policy or default


def synced(copy):
    """A memory_limit copy given its function's code and defaults as they are now
    (`f.__code__ = ...` after grad(f, memory_limit=...): the copy kept the old ones and
    its rule's guards, which read the copy's, held: the old function's gradient)."""
    original = unlimited(copy)
    if original is not None:
        for name in ("__code__", "__defaults__", "__kwdefaults__"):
            if getattr(copy, name) is not getattr(original, name):
                setattr(copy, name, getattr(original, name))
    return copy


def unlimited(fn):
    """The function a memory_limit copy was made from (None for any other): where the
    copy's marked loops raise a TransformError while running (a helper's or the loop
    step's rule compiled on the way), grad runs that instead. Best effort, never a new
    error; the marked function's work until the error is lost (and runs again)."""
    ref = getattr(fn, "thunkgrad_unlimited", None)
    return ref() if ref is not None else None
