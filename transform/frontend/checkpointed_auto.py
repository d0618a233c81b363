"""Stage 1a, grad(..., memory_limit=L): the function's outermost `for` loops over a
range or a name become checkpointed loops whose snapshot count the driver picks when
the loop starts (runtime/checkpoint_budget.py: taped if its tape fits in L).

Best effort: a loop the marker's checks refuse (transform/frontend/checkpointed.py)
stays taped, without an error; a loop inside a `while` is not outermost. The limit
comes with the function: grad makes a copy of it carrying `thunkgrad_memory_limit`
(transform/public/memory_limit.py), so its compiled rules are cached apart."""
import gast

from runtime.checkpoint import checkpointed, memory_budget
from .checkpointed import _rewrite
from ..errors import TransformError
from ..ir.nodes import const, load


def memory_limit_loops(src, explain=False):
    """Mark src's outermost loops when its function carries a memory limit."""
    limit = getattr(src.fn, "thunkgrad_memory_limit", None)
    if limit is None:
        return
    src.node.body = _block(src, src.node.body, limit, explain)
    src.refresh()


def _block(src, body, limit, explain):
    out = []
    for s in body:
        if isinstance(s, gast.For):
            out.append(_marked(src, s, limit, explain))
            continue
        if isinstance(s, (gast.While, gast.AsyncFor)):
            out.append(s)
            continue
        for field in ("body", "orelse", "finalbody"):
            if isinstance(getattr(s, field, None), list):
                setattr(s, field, _block(src, getattr(s, field), limit, explain))
        for h in getattr(s, "handlers", ()):
            h.body = _block(src, h.body, limit, explain)
        out.append(s)
    return out


def _marked(src, loop, limit, explain):
    """The loop as a call of the driver with a Budget, or itself (taped)."""
    it = loop.iter
    if isinstance(it, gast.Call) and src.resolve(it.func) is checkpointed:
        return loop                     # the user's marker: checkpointed_loops's
    if not (isinstance(it, gast.Name) or isinstance(it, gast.Call) and
            src.resolve(it.func) is range):
        return loop                     # (an iterator's length is not known)
    marker, budget = load("checkpointed"), load("memory_budget")
    marker.runtime_helper, budget.runtime_helper = checkpointed, memory_budget
    given = loop.iter                   # (marked in place: the checks look at the tree)
    loop.iter = gast.Call(func=marker, args=[given], keywords=[gast.keyword(
        arg="snapshots", value=gast.Call(func=budget, args=[const(limit)], keywords=[]))])
    try:
        return _rewrite(src, loop, explain)
    except TransformError:
        loop.iter = given
        return loop
