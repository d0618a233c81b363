"""run_checkpointed's JVP: forward mode keeps no tape, so a checkpointed loop's tangent
is its steps' tangents carried along beside the carry, step by step:

    (u, total) = run_checkpointed(key, (u, total), (dt, W), range(n), s, where)
        tangent: for each item x, (carry, carry_dot) = step's jvp at (*carry, *inv, x)
        along (carry_dot, inv_dot, x_dot)

The step's tangent comes from forward mode (runtime/callees.py function_jvp: the
compiler's call_jvp compiles the step's `_jvp`). Snapshots play no part: nothing is
recomputed. Compiled user code never reaches this (forward mode writes a marked loop as
a plain loop, transform/frontend/checkpointed_forward.py); it is the rule's forward
term, for code that calls the driver itself (generated code differentiated again)."""
from .callees import function_jvp
from .checkpoint import SIZED, STEPS, Chunks, check_snapshots, chunked
from .checkpoint_objects import object_states, refuse_changed_objects
from .forward import zero_tangent


def run_checkpointed_jvp(tangents, key, carry, invariants, iterable, snapshots, where=""):
    """The tangent of run_checkpointed's output carry (a tuple, one per carried value)
    along `tangents` by position: (key's, the carry's, the invariants', the
    iterable's, ...); None is a zero tangent."""
    check_snapshots(snapshots)
    step = STEPS[key]
    t_carry, t_inv, t_items = (list(tangents) + [None] * 4)[1:4]
    carry, invariants = tuple(carry), tuple(invariants)
    t_carry = _entries(t_carry, len(carry))
    t_inv = _entries(t_inv, len(invariants))
    objects = object_states((carry, invariants))
    online = getattr(step, "thunkgrad_online", None)
    if online == "while":
        carry, t_carry = _while(step, carry, t_carry, invariants, t_inv, iterable)
    else:
        items = chunked(step, iterable, where)
        t_items = _item_tangents(items, iterable, t_items, where)
        for i, x in enumerate(items):
            out, out_dot = _step(step, carry, t_carry, invariants, t_inv, (x,),
                                 (None if t_items is None else t_items[i],))
            if online:                              # ("for": go on?, *carried)
                (go, *carry), (_, *t_carry) = out, out_dot
                carry, t_carry = tuple(carry), list(t_carry)
                if not go:
                    break
            else:
                carry, t_carry = out, list(out_dot)
    refuse_changed_objects(objects, where)
    return tuple(zero_tangent(c) if t is None else t for c, t in zip(carry, t_carry))


def _entries(tangent, n):
    """A tuple's tangent as a list of n entries (None: zeros)."""
    return [None] * n if tangent is None else list(tangent)


def _while(step, carry, t_carry, invariants, t_inv, go):
    while go:
        (go, *carry), (_, *t_carry) = _step(step, carry, t_carry, invariants, t_inv, (), ())
    return tuple(carry), list(t_carry)


def _step(step, carry, t_carry, invariants, t_inv, item, t_item):
    """(step's output, its tangent): one call of the step's `_jvp`."""
    args = (*carry, *invariants, *item)
    given = {k: t for k, t in enumerate((*t_carry, *t_inv, *t_item)) if t is not None}
    out, out_dot = function_jvp(step, given, *args)
    out = tuple(out)
    out_dot = zero_tangent(out) if out_dot is None else tuple(out_dot)
    return out, out_dot


def _item_tangents(items, iterable, t_items, where):
    """The items' tangents, indexed like `items` (a chunked step's: slices of them)."""
    if t_items is None:
        return None
    if not isinstance(iterable, SIZED):
        raise TypeError(f"{where}: a checkpointed loop over a {type(iterable).__name__} "
                        "whose items carry a derivative; loop over a list of them")
    return Chunks(t_items, items.k) if isinstance(items, Chunks) else t_items
