"""Stage 1b, desugar (data): `dict(p)` and `dict(p, k=v)` where the source shows p is a
dict become the display Python builds, whose `**` the normalizer writes as dict unions
(their rule gives each entry's cotangent to the dict it came from):

    p = {"w": w, "b": b}            ->  p = {"w": w, "b": b}
    q = dict(p, b=v)                    q = {**p, "b": v}

Only when p is a dict or dict comprehension display, or a local every binding of which
makes a new dict (a display, `dict(...)`, `p.copy()`, a union with a display) or merges
into one (`p |= q`; the others show p is a dict): `dict(pairs)` of a list of pairs or
a zip, and a parameter, stay as written (`dict(p)` has a rule for a dict and for pairs);
with keywords, any p: `dict(p, k=v)` -> `{**dict(p), "k": v}` (session 34), and
`dict(p, **q)` -> `{**dict(p), **q}` (session 36).
"""
import gast

from ..ir.nodes import const, located, walk


def rewrite_dict_calls(src, uses):
    """Rewrite each such `dict(...)` call of `src.node` in place; True if any."""
    changed = False
    for node in list(walk(src.node)):
        copied = _copies_a_dict(node, uses)
        if copied or _overrides(node, uses):
            first = node.args[:1] if copied else [located(
                gast.Call(func=node.func, args=node.args, keywords=[]), node)
                for _ in node.args]
            display = gast.Dict(keys=[None] * len(first) + [
                None if kw.arg is None else const(kw.arg) for kw in node.keywords],
                values=first + [kw.value for kw in node.keywords])
            changed |= _replace(uses.parent.get(id(node)), node, located(display, node))
    return changed


def _overrides(node, uses):
    """`dict(p, k=v)` of any p (a parameter, pairs): `{**dict(p), "k": v}`, which is what
    Python builds (dict(p), then the keywords written over it); `dict(p)` has a rule for
    a dict and for pairs (session 34). Keywords spread from a dict too: `dict(p, **q)` ->
    `{**dict(p), **q}`, `dict(**q)` -> `{**q}` (session 36)."""
    return uses.is_builtin_call(node, dict) and len(node.args) <= 1 and \
        not any(isinstance(a, gast.Starred) for a in node.args) and bool(node.keywords) and \
        (len(node.args) == 1 or any(kw.arg is None for kw in node.keywords))


def _copies_a_dict(node, uses):
    if not (uses.is_builtin_call(node, dict) and len(node.args) == 1) or \
            isinstance(node.args[0], gast.Starred) or any(kw.arg is None for kw in node.keywords):
        return False
    arg = node.args[0]
    if _new_dict(arg):
        return True
    if not isinstance(arg, gast.Name) or not uses.candidate(arg.id):
        return False
    return {_kind(b, uses) for b in uses.bindings(arg.id)} == {"dict"}


def _kind(binding, uses):
    """"dict" if `binding` makes a new dict or merges into one (`p |= q` of a dict p)."""
    parent = uses.up(binding)
    if isinstance(parent, gast.AugAssign) and isinstance(parent.op, gast.BitOr):
        return "dict"
    stmt = uses.plain_assignment(binding)
    return "dict" if _new_dict(getattr(stmt, "value", None)) else uses.made_kind(stmt)


def _new_dict(value):
    """A dict display or comprehension, or a union with one (`p | {...}`: a dict, or the
    primal's TypeError)."""
    if isinstance(value, gast.BinOp) and isinstance(value.op, gast.BitOr):
        return any(isinstance(side, (gast.Dict, gast.DictComp))
                   for side in (value.left, value.right))
    return isinstance(value, (gast.Dict, gast.DictComp))


def _replace(parent, old, new):
    """Put `new` where `old` is among `parent`'s fields."""
    for field, value in gast.iter_fields(parent):
        if value is old:
            setattr(parent, field, new)
            return True
        if isinstance(value, list) and any(v is old for v in value):
            value[[id(v) for v in value].index(id(old))] = new
            return True
    return False
