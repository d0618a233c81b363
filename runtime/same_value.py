"""Whether a computed attribute's getter, run again, gives the value read before
(runtime/containers.py computed_attribute_vjp; a cached_property's cached value in forward
mode, runtime/forward.py)."""
import numpy as np


def same_value(a, b):
    """Equal values, NaN equal to NaN; lists, tuples, dicts and plain objects entry by
    entry (a ragged list or a dict of arrays is no array: array_equal cannot say)."""
    if a is b:
        return True
    if type(a) is not type(b) and not (_is_number(a) and _is_number(b)):
        return False
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(map(same_value, a, b))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same_value(a[k], b[k]) for k in a)
    if hasattr(a, "__dict__") and not isinstance(a, np.ndarray):
        return same_value(vars(a), vars(b))
    try:
        return bool(np.array_equal(a, b, equal_nan=True))
    except (TypeError, ValueError):
        return a == b if isinstance(a, str) else False


def _is_number(v):
    return isinstance(v, (int, float, complex, np.generic))
