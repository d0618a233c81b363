"""Stage 5, analyze: `x.shape` of a value the compiler cannot show is an array.

Without argument shapes (the general rule) `u.shape` might be a user object's own
attribute, so it is read with getattr's rule, through which a derivative flows.
Where that makes a refusal (`np.arange(u.shape[0])`: a varied value reaches a
position without a derivative), such reads of varied values become an array's
metadata, which has none, checked when the code runs:

    t = u.shape    ->    t = array_metadata(u, "shape", "<refusal at the user's line>")

array_metadata (runtime/attributes.py) returns the attribute of an array or number,
or another object's when it can carry no derivative (ints, a dtype); else it raises
the refusal the compiler would have given. A certain object (a global, a local
made by a user class, a method's self) keeps getattr's rule and the refusal.
"""
import gast

from ..errors import TransformError
from ..ir.nodes import const
from ..ir.primitives import Prim
from .activity import Activity, walk
from ..ir.typed import typed_form
from .reasons import _known_object, check_reasons


def analyze_activity(ctx, body, output, varied):
    """ctx.activity, the reasons checked; metadata reads settled if they were refused.
    The analyses walk `ctx.typed`, built again from `body` (gast) where a read became a
    nondiff statement."""
    ctx.activity = Activity(ctx.typed, varied, output)
    try:
        check_reasons(ctx, ctx.typed)
    except TransformError:
        if not _as_metadata(ctx, ctx.typed):
            raise
        ctx.typed = typed_form(ctx.src, body)
        ctx.activity = Activity(ctx.typed, varied, output)
        check_reasons(ctx, ctx.typed)


def _as_metadata(ctx, typed):
    """Rewrite each `t = x.shape` (x varied, maybe an array) as array_metadata (the gast
    statement and its Prim: the typed form is then built again)."""
    changed = False
    for st, _ in walk(typed):
        prim, s = getattr(st, "prim", None), st.node
        attr = getattr(prim, "metadata", None)
        if attr is None or not isinstance(s, gast.Assign):
            continue
        obj = prim.inputs.get("obj")
        if not isinstance(obj, gast.Name) or obj.id not in ctx.activity.varied or \
                _known_object(ctx, prim):
            continue
        refusal = ctx.src.error(
            f"`.{attr}` was compiled as an array's, without a derivative, but the value "
            "is an object whose attribute may carry one", prim.site,
            hint="pass an array, or read the attribute outside the differentiated function")
        s.value = ctx.names.call("array_metadata", obj, const(attr), const(str(refusal)))
        s.prim = Prim("nondiff", attr)
        changed = True
    return changed
