"""What generated forward-mode (`<name>_jvp`) code needs at run time beside the rules'
JVP terms: a zero tangent shaped like a value, and an element store into a tangent that
never writes into an array someone else holds.

    w = np.zeros(3)            w_dot = zero_tangent(w)
    w[0] = y                   w_dot = stored_tangent(w_dot, 0, y_dot)
"""
import numpy as np


def zero_tangent(value):
    """A zero tangent for `value`: float zeros of an array's shape (its dtype if it is a
    float array), 0.0 for a number, the same structure for tuples, lists and dicts; None
    for what carries no derivative (strings, None, other objects)."""
    if isinstance(value, np.ndarray):
        return np.zeros(value.shape, value.dtype if value.dtype.kind in "fc" else float)
    if isinstance(value, (bool, np.bool_)):
        return None
    if isinstance(value, np.floating):
        return type(value)(0.0)
    if isinstance(value, (int, float, np.integer)):
        return 0.0
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        return type(value)(*[zero_tangent(v) for v in value])
    if isinstance(value, (tuple, list)):
        return type(value)(zero_tangent(v) for v in value)
    if isinstance(value, dict):
        return {k: zero_tangent(v) for k, v in value.items()}
    return None


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
