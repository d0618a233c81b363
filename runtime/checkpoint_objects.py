"""Objects a checkpointed loop's body changes in place (`cell.step(x)` setting `self.h`):
the driver carries and snapshots names, not the attributes of the objects they hold, so
the backward sweep would run steps again from the state the forward sweep left (a wrong
gradient), and a loop whose carries are not differentiated runs plainly, its effect on
the object unseen by reverse mode (fuzz: checkpointed_loops:330861). Refused when the
loop has run (runtime/checkpoint.py, runtime/checkpoint_rule.py)."""
import hashlib
import random
import types

import numpy as np

from .thunks import unthunk

_GENERATORS = (np.random.Generator, np.random.RandomState, np.random.BitGenerator,
               random.Random)


def _digest(obj):
    """A digest of the numbers an object holds (dtypes, shapes and bits), as the driver's
    fingerprint of a carry (runtime/checkpoint_rule.py)."""
    h = hashlib.blake2b(digest_size=16)
    stack = [_state(obj, 0)]
    while stack:
        v = unthunk(stack.pop())
        if isinstance(v, (tuple, list)):
            stack.extend(v)
        elif isinstance(v, dict):
            stack.extend(v.values())
        elif isinstance(v, (bool, int, float, complex, np.ndarray, np.generic)):
            a = np.asarray(v)
            h.update(f"{a.dtype.str}{a.shape}".encode())
            h.update(np.ascontiguousarray(a).tobytes() if a.dtype.kind in "biufc" else b"")
    return h.digest()


def _state(obj, depth):
    """The object's attribute values, an attribute holding another object by its own."""
    return [_state(v, depth + 1) if _user_object(v) and depth < 4 else v
            for v in vars(obj).values()]


def object_states(value, found=None):
    """[(object, fingerprint of its attributes)] for the user objects reachable from a
    loop's carry and invariants (through tuples, lists and dicts)."""
    found = [] if found is None else found
    if isinstance(value, (tuple, list)):
        for v in value:
            object_states(v, found)
    elif isinstance(value, dict):
        object_states(list(value.values()), found)
    elif _user_object(value) and not any(value is o for o, _ in found):
        found.append((value, _digest(value)))
    return found


def _user_object(value):
    return hasattr(value, "__dict__") and not isinstance(
        value, (type, types.ModuleType, types.FunctionType, np.ndarray, *_GENERATORS)) \
        and not callable(value)


def refuse_changed_objects(states, where):
    """An object the steps change in place (`cell.step(x)` setting `self.h`): the driver
    neither carries nor snapshots its attributes, so the backward sweep would run steps
    from the wrong state (a wrong gradient; fuzz: checkpointed_loops:330861)."""
    for obj, before in states:
        if _digest(obj) != before:
            raise TypeError(f"{where}: a checkpointed loop's body changes attributes of a "
                            f"{type(obj).__name__} object, which the driver does not carry "
                            "from step to step; keep the changing state in a name the loop "
                            "rebinds (h = cell.step(h, x)), or loop without checkpointed")
