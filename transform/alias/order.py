"""Stage 2, check, order: writes the generated code would order differently from NumPy.

The generated forward gives a write value semantics (the written array is copied
first), so a view taken before the write keeps the old values, where NumPy's view
sees the new ones. Two places read such a view implicitly, with no name for the
alias check's liveness to find:

    B[0], B[1] = B[1], B[0]          # the right's `B[0]` is read after `B[0]` is written
    for i, v in enumerate(y[:-1]):   # each `v` is read from `y` when the loop gets there
        y[i + 1] = v

Both are refused at the statement, naming the array.
"""
import gast

from .messages import _text, _view_call
from .tables import SCALAR_ATTRS


class OrderChecks:
    """The two refusals above: a part of an AliasCheck (`check`), whose current State,
    open loops and current statement it reads."""

    def __init__(self, check):
        self.check = check              # the AliasCheck: state, loops, current
        self.src = check.src

    @property
    def state(self):
        return self.check.state         # replaced as the check walks branches and loops

    def iterated(self, name, objs, node):
        """`for v in y[:-1]: y[i + 1] = v`: NumPy's loop reads each element when it
        gets there, so it sees the writes; the generated loop walks the old array."""
        for loop in self.check.loops:
            s, seq = loop["iter"]
            if seq is not None and self.state.reach(seq.objs) & objs and \
                    not self.current_item(s, name):
                raise self.src.error(
                    f"writing into `{name}` inside a loop over `{_text(s.iter)}` is not "
                    f"supported: the loop reads its items from memory `{name}` shares, so "
                    "later items may hold the write, and the generated loop (and its "
                    "backward sweep, which reads the items back) would not follow it",
                    node, hint=f"loop over indices and read `{name}[i]` in the body, or "
                               f"over a copy (`{name}.copy()`) if the old values are meant")

    def current_item(self, loop, name):
        """The statement writes only the item the loop is at, `xs[i] = ...` in
        `for i, v in enumerate(xs)`, xs a list (or `d[k]` in `for k in d` or
        `d.items()`, d a dict): an item the loop has read already. Not for arrays,
        whose loop variables the backward sweep reads back from the written array."""
        index, container, kind = _loop_index(loop)
        stmt = self.check.current
        targets = stmt.targets if isinstance(stmt, gast.Assign) else \
            [stmt.target] if isinstance(stmt, gast.AugAssign) else []
        if index is None or container != name or self.state.origin.get(index) is not loop:
            return False
        if not _made_as(self.state.origin.get(container), container, kind):
            return False                        # an array: its backward sweep differs
        return bool(targets) and all(
            isinstance(t, gast.Subscript) and isinstance(t.value, gast.Name) and
            t.value.id == name and isinstance(t.slice, gast.Name) and t.slice.id == index
            for t in targets)

    def tuple_of_views(self, s, value):
        """`B[0], B[1] = B[1], B[0]`: NumPy fills B[0] first, then copies the right's
        `B[0]`, a view that now holds the new row; the generated code would copy the
        old one. Refused when a later right-hand item may share memory an earlier
        target writes (an item proved fresh, `B[0].copy()`, is fine). A right-hand side
        unpacked from one value (`pair(B[0], B[1])`, `B[::-1]`) counts as every item."""
        target = s.targets[0]
        if len(s.targets) != 1 or not isinstance(target, (gast.Tuple, gast.List)):
            return
        literal = isinstance(s.value, (gast.Tuple, gast.List)) and \
            len(target.elts) == len(s.value.elts)
        items = s.value.elts if literal else [s.value] * len(target.elts)
        written = frozenset()
        for lhs, rhs in zip(target.elts, items):
            read = self.state.reach(self.peek(rhs) if literal else
                                    frozenset() if _fancy(rhs) else value.objs)
            if read & written:
                raise self.views_in_tuple(target, items if literal else None, rhs, s)
            if isinstance(lhs, gast.Subscript):
                written |= self.peek(lhs.value)

    def peek(self, e):
        """The objects a Name, subscript, attribute or view call may refer to, read
        without making anything (the statement's value is computed after)."""
        while not _fancy(e):
            if isinstance(e, gast.Subscript) or (isinstance(e, gast.Attribute)
                                                   and e.attr not in SCALAR_ATTRS):
                e = e.value
            elif isinstance(e, gast.Call) and _view_call(e) and (e.args or
                                                                isinstance(e.func, gast.Attribute)):
                e = e.args[0] if not isinstance(e.func, gast.Attribute) else e.func.value
            elif isinstance(e, gast.Starred):
                e = e.value
            else:
                break
        if isinstance(e, gast.Name):
            return self.state.names.get(e.id, frozenset())
        return frozenset()

    def views_in_tuple(self, target, items, rhs, s):
        """The refusal; items: the right-hand side's items (None: one value unpacked)."""
        first = target.elts[0]
        base = _text(first.value if isinstance(first, gast.Subscript) else first)
        copies = ", ".join(f"{_text(v)}.copy()" for v in items) if items else \
            f"[v.copy() for v in {_text(rhs)}]"
        targets = ", ".join(_text(t) for t in target.elts)
        hint = f"to swap, copy the right-hand side: `{targets} = {copies}`"
        rows = [_row(t, base) for t in target.elts], [_row(v, base) for v in items or [rhs]]
        if items and None not in rows[0] + rows[1]:
            hint = f"index with lists: `{base}[[{', '.join(rows[0])}]] = " \
                   f"{base}[[{', '.join(rows[1])}]]`, or " + hint
        return self.src.error(
            f"this tuple assignment writes into `{base}` while `{_text(rhs)}` on the right "
            f"may be a view of `{base}`: NumPy copies it after the earlier targets were "
            "written, so it may hold the new values, and the generated code would copy the "
            "old ones", s, hint=hint)


def _loop_index(loop):
    """(index name, container name, list or dict) of `for i, v in enumerate(c)`,
    `for k, v in c.items()` or `for k in c`; (None, None, None) for other loops."""
    it, target = loop.iter, loop.target
    pair = isinstance(target, gast.Tuple) and len(target.elts) == 2 and \
        isinstance(target.elts[0], gast.Name)
    if pair and isinstance(it, gast.Call) and len(it.args) == 1 and not it.keywords and \
            isinstance(it.args[0], gast.Name) and getattr(it.func, "id", None) == "enumerate":
        return target.elts[0].id, it.args[0].id, list
    if pair and isinstance(it, gast.Call) and not it.args and \
            isinstance(it.func, gast.Attribute) and it.func.attr == "items" and \
            isinstance(it.func.value, gast.Name):
        return target.elts[0].id, it.func.value.id, dict
    if isinstance(it, gast.Name) and isinstance(target, gast.Name):
        return target.id, it.id, dict
    return None, None, None


def _made_as(stmt, name, kind):
    """`d = {...}` / `d = dict(...)` (kind dict), `xs = [...]` / `xs = list(...)`."""
    value = getattr(stmt, "value", None)
    literal = {dict: gast.Dict, list: (gast.List, gast.ListComp)}[kind]
    return isinstance(stmt, gast.Assign) and len(stmt.targets) == 1 and \
        isinstance(stmt.targets[0], gast.Name) and stmt.targets[0].id == name and \
        (isinstance(value, literal) or isinstance(value, gast.Call) and
         getattr(value.func, "id", None) == kind.__name__)


def _fancy(e):
    """`B[[1, 0]]`: indexing with a list makes a copy."""
    return isinstance(e, gast.Subscript) and isinstance(e.slice, gast.List)


def _row(e, base):
    """`B[1]` -> "1" (a single plain index into `base`), else None."""
    if isinstance(e, gast.Subscript) and _text(e.value) == base and \
            not isinstance(e.slice, (gast.Tuple, gast.Slice)):
        return _text(e.slice)
    return None
