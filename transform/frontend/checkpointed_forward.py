"""Stage 1a in forward mode: a loop marked `checkpointed` is a plain loop over its
iterable (a tangent sweep keeps no tape, so there is nothing to bound), the marker
dropped so the iterable's tangent reaches the loop variable:

    for t in checkpointed(xs, snapshots=s):    ->    for t in xs:

The marker's arguments are checked as reverse mode checks them (checkpointed.py)."""
import gast

from runtime.checkpoint import checkpointed
from .checkpointed import _marker_arguments


def unmark_checkpointed_loops(src):
    """Replace every `for ... in checkpointed(xs, snapshots=s)` iterable by xs; any
    other use of the marker is refused as reverse mode refuses it."""
    if not any(src.resolve(c.func) is checkpointed for c in src.calls()):
        return
    for loop in gast.walk(src.node):
        if isinstance(loop, gast.For) and isinstance(loop.iter, gast.Call) and \
                src.resolve(loop.iter.func) is checkpointed:
            loop.iter = _marker_arguments(src, loop.iter)[0]
    for c in gast.walk(src.node):
        if isinstance(c, gast.Call) and src.resolve(c.func) is checkpointed:
            raise src.error("checkpointed(...) marks the iterable of a for loop only", c,
                            hint="write `for t in checkpointed(range(n), snapshots=s):`")
    src.refresh()
