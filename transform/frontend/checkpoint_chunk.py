"""`checkpointed(range(n), snapshots=s, chunk=k)`: the step the driver checkpoints runs k
iterations of the body (a loop over a range of k items, compiled and taped like any
loop), so a loop of cheap steps pays one rule call per k iterations instead of one per
iteration. The driver cuts the range, list, tuple or array (runtime/checkpoint.py
`chunked`); the memory is s carries plus the tape of k iterations. chunk="auto": the same
step, k chosen by the driver when the loop starts (runtime/checkpoint_budget.py)."""
import copy

import gast


def chunk_size(src, given):
    """k from the marker's `chunk=` keyword (an integer literal >= 1, or "auto": the
    driver picks k when the loop starts), 1 without it."""
    node = given.get("chunk")
    if node is None:
        return 1
    k = getattr(node, "value", None) if isinstance(node, gast.Constant) else None
    if k != "auto" and (type(k) is not int or k < 1):
        raise src.error("checkpointed(..., chunk=k) needs an integer literal k >= 1 or "
                        "\"auto\"", node,
                        hint="write checkpointed(range(n), snapshots=s, chunk=\"auto\")")
    return k


def chunk_loop(src, loop, k, over_range=False):
    """(a copy of the loop whose body is a loop of the body over `items`, items' name);
    the step made of it takes k items as its last argument. over_range: the marked
    iterable is a range(...), so the items are a range (runtime/checkpoint.py Chunks),
    walked as `range(items.start, items.stop, items.step)`: a loop over a range
    call runs without a trip counter, as the taped loop does (transform/lowering/
    control.py), where one over a value counts its trips."""
    items = f"_chunk_of_{loop.target.id}"
    if items in src.locals:
        raise src.error(f"a checkpointed loop with chunk= uses the name {items!r}", loop,
                        hint=f"rename the function's variable {items}")
    walked = gast.Name(id=items, ctx=gast.Load(), annotation=None, type_comment=None)
    if over_range:
        walked = gast.Call(func=gast.Name(id="range", ctx=gast.Load(), annotation=None,
                                          type_comment=None),
                           args=[gast.Attribute(value=copy.deepcopy(walked), attr=a,
                                                ctx=gast.Load())
                                 for a in ("start", "stop", "step")], keywords=[])
    inner = gast.For(target=copy.deepcopy(loop.target), iter=walked,
                     body=copy.deepcopy(loop.body), orelse=[], type_comment=None)
    gast.copy_location(inner, loop)
    outer = copy.copy(loop)
    outer.body = [inner]
    return outer, items
