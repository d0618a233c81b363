"""Optimization: a value the backward sweep no longer reads is not saved on the tape.

    tape.append(shape_only(t1))          (gone)
    t1 = W @ xi                          t1 = W @ xi
    ...                          ->      ...
    t1 = pop()                           (gone)

Later passes can remove the last read of a saved value (a row update needs no shape
of `W @ x`). Every push of a name pairs with one pop into it on the mirrored path, so
dropping all of both keeps the rest of the tape in order.
"""
import gast

from .names import blocks, name_ids, statements


def drop_dead_saves(rrule, pullback):
    """Remove the pushes and pops of restored names the pullback never reads."""
    popped, reads = set(), name_ids(gast.Module(body=pullback.body, type_ignores=[]),
                                    gast.Load)
    for s in statements(pullback):
        name = _popped_into(s)
        if name is not None:
            popped.add(name)
        elif isinstance(s, gast.For):
            reads |= name_ids(s.target)              # header reads of the tape stay
    dead = popped - reads
    if not dead:
        return
    for block in blocks(rrule):
        block[:] = _without(block, lambda t: _popped_into(t) in dead or _pushed(t) in dead)
    if not any(_popped_into(t) for t in statements(pullback)) and \
            not any(isinstance(t, gast.For) and "popped" in name_ids(t.iter)
                    for t in statements(pullback)):
        pullback.body[:] = _without(pullback.body, _reads_the_tape)
        if not any(_pushed(t) for t in statements(rrule)):
            rrule.body[:] = _without(rrule.body, _makes_the_tape)
    args = pullback.args
    keep = [k for k, a in enumerate(args.kwonlyargs) if a.id not in dead]
    args.kwonlyargs = [args.kwonlyargs[k] for k in keep]
    args.kw_defaults = [args.kw_defaults[k] for k in keep]


def _without(block, drop):
    """block without the statements `drop` picks, nor the end-of-line comments after them."""
    out, dropping = [], False
    for t in block:
        if dropping and isinstance(t, gast.Expr) and isinstance(t.value, gast.Constant) \
                and str(t.value.value).startswith("__thunkgrad_eol_"):
            continue
        dropping = drop(t)
        if not dropping:
            out.append(t)
    return out


def _reads_the_tape(s):
    """`pop = tape_reader(tape)` and `del pop`."""
    if isinstance(s, gast.Delete):
        return all(isinstance(t, gast.Name) and t.id == "pop" for t in s.targets)
    return isinstance(s, gast.Assign) and len(s.targets) == 1 \
        and isinstance(s.targets[0], gast.Name) and s.targets[0].id == "pop"


def _makes_the_tape(s):
    return isinstance(s, gast.Assign) and len(s.targets) == 1 \
        and isinstance(s.targets[0], gast.Name) and s.targets[0].id == "tape"


def _popped_into(s):
    """N for `N = pop()`."""
    if isinstance(s, gast.Assign) and len(s.targets) == 1 \
            and isinstance(s.targets[0], gast.Name) and isinstance(s.value, gast.Call) \
            and isinstance(s.value.func, gast.Name) and s.value.func.id == "pop" \
            and not s.value.args:
        return s.targets[0].id
    return None


def _pushed(s):
    """N for `tape.append(N)` and `tape.append(shape_only(N))`."""
    if not (isinstance(s, gast.Expr) and isinstance(s.value, gast.Call)
            and isinstance(s.value.func, gast.Attribute) and s.value.func.attr == "append"
            and isinstance(s.value.func.value, gast.Name) and s.value.func.value.id == "tape"
            and len(s.value.args) == 1):
        return None
    arg = s.value.args[0]
    if isinstance(arg, gast.Call) and isinstance(arg.func, gast.Name) \
            and arg.func.id == "shape_only" and len(arg.args) == 1:
        arg = arg.args[0]
    return arg.id if isinstance(arg, gast.Name) else None

