"""Stage 1b, desugar (data): `*xs` and `**params` at a call, where the source shows
what they hold, become the arguments one by one, so a derivative can flow through them:

    xs = (a, b * 2)                 ->  xs = (a, b * 2)
    y = f(*xs)                          y = f(xs[0], xs[1])
    params = {"w": w, "b": b}       ->  params = {"w": w, "b": b}
    y = f(**params)                     y = f(w=params["w"], b=params["b"])

Only for a local bound once, by a display (tuple or list without `*`; dict with string
keys and no `**`), and otherwise only indexed, measured (`len`), iterated or unpacked
again at a call: then its length (its keys) at every call is the display's. Anything
else (a parameter, `xs.append(v)`, `xs[0] = v` on a dict, `ys = xs`) stays as written:
the normalizer refuses it where a derivative flows (the parameters it fills are known
only at run time).
"""
import gast

from ..ir.nodes import const, load, located, walk
from .local_uses import CONSUMING_BUILTINS, LAZY_BUILTINS, LocalUses


def rewrite_starred_calls(src, uses=None):
    """Spread each `*name` / `**name` of a known display in `src.node`; True if any."""
    calls = [n for n in walk(src.node) if isinstance(n, gast.Call) and _has_spread(n)]
    if not calls:
        return False
    uses = uses or LocalUses(src)
    changed = False
    for call in calls:
        changed |= _spread_positional(call, uses)
        changed |= _spread_keywords(call, uses)
    return changed


def _has_spread(call):
    return any(isinstance(a, gast.Starred) for a in call.args) or \
        any(kw.arg is None for kw in call.keywords)


def _spread_positional(call, uses):
    args, changed = [], False
    for a in call.args:
        display = _display(a.value, uses, (gast.Tuple, gast.List)) \
            if isinstance(a, gast.Starred) else None
        if display is None:
            args.append(a)
            continue
        args.extend(located(_item(a.value.id, k), a) for k in range(len(display.elts)))
        changed = True
    call.args = args
    return changed


def _spread_keywords(call, uses):
    named = {kw.arg for kw in call.keywords if kw.arg is not None}
    keywords, changed = [], False
    for kw in call.keywords:
        display = _display(kw.value, uses, (gast.Dict,)) if kw.arg is None else None
        keys = [k.value for k in display.keys] if display is not None else []
        if display is None or named & set(keys) or len(set(keys)) != len(keys):
            keywords.append(kw)               # a repeated keyword: the primal's TypeError
            continue
        named.update(keys)
        keywords.extend(gast.keyword(arg=k, value=located(_item(kw.value.id, k), kw.value))
                        for k in keys)
        changed = True
    call.keywords = keywords
    return changed


def _item(name, key):
    return gast.Subscript(value=load(name), slice=const(key), ctx=gast.Load())


def _display(value, uses, kinds):
    """The display `value` (a Name) is bound to, if its length and keys are fixed."""
    if not isinstance(value, gast.Name) or not uses.candidate(value.id):
        return None
    bindings = uses.bindings(value.id)
    stmt = uses.plain_assignment(bindings[0]) if len(bindings) == 1 else None
    display = getattr(stmt, "value", None)
    if not isinstance(display, kinds) or not _fixed(display):
        return None
    read_ok = _dict_read if isinstance(display, gast.Dict) else _sequence_read
    return display if all(read_ok(n, uses) for n in uses.reads(value.id)) else None


def _fixed(display):
    if isinstance(display, gast.Dict):
        return all(isinstance(k, gast.Constant) and isinstance(k.value, str)
                   for k in display.keys)         # a None key is a `**` merge
    return not any(isinstance(e, gast.Starred) for e in display.elts)


def _sequence_read(name, uses):
    """A read that cannot change a tuple's or list's length."""
    parent = uses.up(name)
    if isinstance(parent, gast.Starred):
        return isinstance(uses.up(parent), gast.Call)
    if isinstance(parent, gast.Subscript) and parent.value is name:
        return isinstance(parent.ctx, gast.Load) or \
            isinstance(parent.ctx, gast.Store) and isinstance(parent.slice, gast.Constant)
    if isinstance(parent, (gast.For, gast.comprehension)) and parent.iter is name:
        return True
    if isinstance(parent, gast.Call) and name in parent.args:
        return uses.is_builtin_call(parent, *CONSUMING_BUILTINS, *LAZY_BUILTINS) or \
            uses.is_numpy_call(parent)
    return False


def _dict_read(name, uses):
    """A read that cannot change a dict's keys."""
    parent = uses.up(name)
    if isinstance(parent, gast.keyword):
        return parent.arg is None
    if isinstance(parent, gast.Subscript) and parent.value is name:
        return isinstance(parent.ctx, gast.Load)
    if isinstance(parent, gast.Attribute) and parent.value is name:
        call = uses.up(parent)
        return parent.attr in ("get", "keys", "values", "items") and \
            isinstance(call, gast.Call) and call.func is parent
    if isinstance(parent, gast.Call) and name in parent.args:
        return uses.is_builtin_call(parent, len)
    return False
