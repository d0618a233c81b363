"""Check stage, order: writes the generated code would order differently from NumPy.

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

from .alias_messages import _text, _view_call
from .alias_tables import SCALAR_ATTRS


class OrderChecks:
    """Mixin for AliasCheck (needs self.state, self.loops, self.src)."""

    def iterated(self, name, objs, node):
        """`for v in y[:-1]: y[i + 1] = v`: NumPy's loop reads each element when it
        gets there, so it sees the writes; the generated loop walks the old array."""
        for loop in self.loops:
            s, seq = loop["iter"]
            if seq is not None and self.state.reach(seq.objs) & objs:
                raise self.src.error(
                    f"writing into `{name}` inside a loop over `{_text(s.iter)}` is not "
                    f"supported: the sequence may share memory with `{name}`, so Python "
                    "reads elements the write changed, and the generated loop would not",
                    node, hint=f"loop over indices and read `{name}[i]` in the body, or "
                               f"over a copy (`{name}.copy()`) if the old values are meant")

    def tuple_of_views(self, s):
        """`B[0], B[1] = B[1], B[0]`: NumPy fills B[0] first, then copies the right's
        `B[0]`, a view that now holds the new row; the generated code would copy the
        old one. Refused when a later right-hand item may share memory an earlier
        target writes (an item proved fresh, `B[0].copy()`, is fine)."""
        target, value = s.targets[0], s.value
        if len(s.targets) != 1 or not isinstance(target, (gast.Tuple, gast.List)) or \
                not isinstance(value, (gast.Tuple, gast.List)) or \
                len(target.elts) != len(value.elts):
            return
        written = frozenset()
        for lhs, rhs in zip(target.elts, value.elts):
            read = self.state.reach(self.peek(rhs))
            shared = sorted(read & written)
            if shared:
                raise self.views_in_tuple(target, value, rhs, s)
            if isinstance(lhs, gast.Subscript):
                written |= self.peek(lhs.value)

    def peek(self, e):
        """The objects a Name, subscript, attribute or view call may refer to, read
        without making anything (the statement's value is computed after)."""
        while True:
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

    def views_in_tuple(self, target, value, rhs, s):
        first = target.elts[0]
        base = _text(first.value if isinstance(first, gast.Subscript) else first)
        copies = ", ".join(f"{_text(v)}.copy()" for v in value.elts)
        targets = ", ".join(_text(t) for t in target.elts)
        hint = f"to swap, copy the right-hand side: `{targets} = {copies}`"
        rows = [_row(t, base) for t in target.elts], [_row(v, base) for v in value.elts]
        if None not in rows[0] + rows[1]:
            hint = f"index with lists: `{base}[[{', '.join(rows[0])}]] = " \
                   f"{base}[[{', '.join(rows[1])}]]`, or " + hint
        return self.src.error(
            f"this tuple assignment writes into `{base}` while `{_text(rhs)}` on the right "
            f"may be a view of `{base}`: NumPy copies it after the earlier targets were "
            "written, so it may hold the new values, and the generated code would copy the "
            "old ones", s, hint=hint)


def _row(e, base):
    """`B[1]` -> "1" (a single plain index into `base`), else None."""
    if isinstance(e, gast.Subscript) and _text(e.value) == base and \
            not isinstance(e.slice, (gast.Tuple, gast.Slice)):
        return _text(e.slice)
    return None
