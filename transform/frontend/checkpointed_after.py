"""A checkpointed loop whose loop variable is read outside the loop (after it, or by
code a later pass runs): the driver's call is followed by what Python leaves in the
variable, the last item, when there was one:

    for t in checkpointed(xs, snapshots=s):   ->   _checkpoint_items_12 = xs
        ...                                        (h,) = run_checkpointed(...,
    y = t * 2.0                                        _checkpoint_items_12, ...)
                                                   if len(_checkpoint_items_12) > 0:
                                                       t = _checkpoint_items_12[-1]
                                                   y = t * 2.0

(an empty loop leaves t as it was). The item read is differentiated as any index is:
its cotangent reaches xs[-1] beside the one the driver returns for the loop's reads."""
import gast

from ..ir.nodes import assign, const, load, store


def read_outside(src, loop, outside):
    """Whether loop's variable is read in `outside` (the function's other statements)."""
    return any(isinstance(n, gast.Name) and n.id == loop.target.id and
               isinstance(n.ctx, gast.Load) for s in outside for n in gast.walk(s))


def with_last_item(src, loop, driven):
    """[the items' assignment, the driver's statement reading them, the last item].
    A body that rebinds the loop variable is refused: Python leaves the rebound value,
    not the last item (fuzz: checkpointed_loops:9437)."""
    if any(isinstance(n, gast.Name) and n.id == loop.target.id and
           isinstance(n.ctx, gast.Store) for s in loop.body for n in gast.walk(s)):
        raise src.error("a checkpointed loop's body rebinds its loop variable, which is "
                        "read outside the loop", loop.target,
                        hint="bind the new value to another name in the body")
    items = f"_checkpoint_items_{loop.lineno}"
    if items in src.locals:
        raise src.error(f"a checkpointed loop whose variable is read after it uses the name "
                        f"{items!r}", loop, hint=f"rename the function's variable {items}")
    call = driven.value
    given, call.args[3] = call.args[3], load(items)
    length = gast.Call(func=load("len"), args=[load(items)], keywords=[])
    last = gast.If(test=gast.Compare(left=length, ops=[gast.Gt()], comparators=[const(0)]),
                   body=[gast.Assign(targets=[store(loop.target.id)], value=gast.Subscript(
                       value=load(items), slice=const(-1), ctx=gast.Load()),
                       type_comment=None)], orelse=[])
    out = [assign(items, given), driven, last]
    for s in out:
        for n in gast.walk(s):
            if "lineno" in n._attributes and getattr(n, "lineno", None) is None:
                gast.copy_location(n, loop)
    return out
