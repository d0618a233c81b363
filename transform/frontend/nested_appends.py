"""Stage 1b, desugar (data): `d[k].append(v)` on a list only a private dict holds, as
an item write of a new list:

    hist = {"loss": []}                    hist = {"loss": []}
    hist["loss"].append(v)          ->     hist["loss"] = hist["loss"] + [v]
    return sum(hist["loss"])               return sum(hist["loss"])

The new list stands for the changed one only when nothing else can hold it: `hist` is a
dict the function builds and shares with no other name, container, helper or loop
(local_uses.py), no display or item write puts a named value in it, and each of its
entries is only appended to, indexed, given to a consuming builtin or NumPy, looped
over or returned, never bound to a name. Otherwise the call stays, refused as before.
"""
import gast

from ..ir.nodes import load, located
from .local_uses import CONSUMING_BUILTINS

_OWN = {"keys"}          # `hist.copy()`, `.get(k)`, `.values()` would hand an entry on


def rewrite_nested_appends(src, uses):
    """Rewrite each such append in `src.node`; True if any."""
    rewriter = _Appends(src, uses)
    src.node.body = rewriter.block(src.node.body)
    return rewriter.changed


class _Appends:
    def __init__(self, src, uses):
        self.src, self.uses, self.private, self.changed = src, uses, {}, False

    def block(self, stmts):
        for s in stmts:
            for field in ("body", "orelse", "finalbody"):
                if isinstance(getattr(s, field, None), list):
                    setattr(s, field, self.block(getattr(s, field)))
        return [self.statement(s) for s in stmts]

    def statement(self, s):
        item = _appended_item(s)
        if item is None:
            return s
        name = item.value.id
        if name not in self.private:
            self.private[name] = self.holds_private_lists(name)
        if not self.private[name]:
            return s
        self.changed = True
        grown = gast.BinOp(left=_copy(item), op=gast.Add(),
                           right=gast.List(elts=[s.value.args[0]], ctx=gast.Load()))
        target = gast.Subscript(value=load(name), slice=item.slice, ctx=gast.Store())
        return located(gast.Assign(targets=[target], value=grown, type_comment=None), s)

    def holds_private_lists(self, name):
        uses = self.uses
        if uses.private_container(name, _OWN, set()) != "dict":
            return False
        for b in uses.bindings(name):
            if _named_entry(uses.plain_assignment(b).value):
                return False              # `{"loss": losses}`: the list has a name
        return all(self.entry_use(n) for n in uses.reads(name))

    def entry_use(self, node):
        """Whether this read of the dict uses an entry without keeping it."""
        uses = self.uses
        item = uses.up(node)
        if not isinstance(item, gast.Subscript) or item.value is not node:
            return True                   # the dict itself: private_container judged it
        parent = uses.up(item)
        if isinstance(item.ctx, gast.Store):
            return _fresh(parent.value)
        if isinstance(parent, gast.Attribute):
            return _appended_item(uses.up(uses.up(parent))) is item
        if isinstance(parent, gast.For) and parent.iter is item:
            return not any(_appended_item(n) is not None and
                           _appended_item(n).value.id == node.id for n in gast.walk(parent))
        if isinstance(parent, (gast.Subscript, gast.Return)):
            return parent.value is item
        return isinstance(parent, gast.Call) and item in parent.args and (
            uses.is_builtin_call(parent, *CONSUMING_BUILTINS) or uses.is_numpy_call(parent))


def _appended_item(s):
    """`d[k]` of the statement `d[k].append(v)` (k a constant or a name), else None."""
    call = s.value if isinstance(s, gast.Expr) else None
    if not (isinstance(call, gast.Call) and isinstance(call.func, gast.Attribute) and
            call.func.attr == "append" and len(call.args) == 1 and not call.keywords):
        return None
    item = call.func.value
    if isinstance(item, gast.Subscript) and isinstance(item.value, gast.Name) and \
            isinstance(item.slice, (gast.Constant, gast.Name)):
        return item
    return None


def _named_entry(value):
    """Whether a dict display, comprehension or dict(...) call may put a list in the
    dict that something else holds (each entry must be a new list or a constant)."""
    if isinstance(value, gast.Dict):
        return not all(_fresh(v) for v in value.values)
    if isinstance(value, gast.DictComp):
        return not _fresh(value.value)
    return value.args or not all(_fresh(k.value) for k in value.keywords)


def _fresh(value):
    """A value no other name holds: a list display or comprehension, or a constant."""
    return isinstance(value, (gast.List, gast.ListComp, gast.Constant))


def _copy(item):
    return gast.Subscript(value=load(item.value.id), slice=item.slice, ctx=gast.Load())
