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


def chunk_loop(src, loop, k):
    """(a copy of the loop whose body is a loop of the body over `items`, items' name);
    the step made of it takes a range of k items as its last argument."""
    items = f"_chunk_of_{loop.target.id}"
    if items in src.locals:
        raise src.error(f"a checkpointed loop with chunk= uses the name {items!r}", loop,
                        hint=f"rename the function's variable {items}")
    inner = gast.For(target=copy.deepcopy(loop.target),
                     iter=gast.Name(id=items, ctx=gast.Load(), annotation=None,
                                    type_comment=None),
                     body=copy.deepcopy(loop.body), orelse=[], type_comment=None)
    gast.copy_location(inner, loop)
    outer = copy.copy(loop)
    outer.body = [inner]
    return outer, items
