"""A typed statement (ir/statements.py, ir/generated.py) seen as the gast it will lower
to, for the typed phase's statement passes that used to read the lowered gast
(PropagateCopies): the names it mentions (counted), the names it binds wholly, its gast
expressions, and renaming a read in it.

    dt2 = dt3             Accumulate "set"   count {dt2: 1, dt3: 1}   stores {dt2}
    dx = dx + dt2 * x     Accumulate "sum"   count {dx: 2, dt2: 1, x: 1}
    d = cotangent_zeros(x)  ZeroBuffer       count {d: 1, x: 1}       stores {d}
    for i in s: ...       For                its header and its bodies, all the way down

Nothing here lowers anything: a statement of the typed phase has no node yet (a
generated one) or keeps the node it is lowered to (the user's, `Push`, `Pop`, `Return`).
"""
import gast

from ..ir.generated import Generated
from ..ir.nodes import count_names, name_ids
from ..ir.statements import Accumulate, Control, For
from ..ir.typed_names import _fields

_SIMPLE = (gast.Assign, gast.AugAssign, gast.Expr, gast.Return)
# `d = d + v`, `d = helper(d, v)`: the target twice; `d = v`, `d += v`, `d = own(v)` once
_ONCE = frozenset({"set", "in_place", "own"})
# generated statements that bind no name wholly, and those binding more than `target`
_NO_STORE = frozenset({"SliceAdd", "PopEntries", "TapeStart", "TapeReader", "AddProduct"})


def count(s, into):
    """into[name] += the mentions of name in `s` as lowered (a loop's bodies included)."""
    if isinstance(s, Control):
        header(s, lambda e: count_names(e, into))
        for t in s.body + s.orelse:
            count(t, into)
    elif isinstance(s, Accumulate) and s.node is None:
        into[s.target] = into.get(s.target, 0) + (1 if s.mode in _ONCE else 2)
        count_names(s.value, into)
    elif isinstance(s, Generated) and s.node is None:
        for v in _values(s):
            if isinstance(v, str):
                into[v] = into.get(v, 0) + 1
            else:
                count_names(v, into)
    else:
        count_names(s.node, into)
    return into


def mentions(s, name):
    return count(s, {}).get(name, 0)


def simple(s):
    """Whether `s` lowers to one or more assignments, expressions or returns (no block)."""
    if isinstance(s, Control):
        return False
    if isinstance(s, Generated) and s.node is None:
        return type(s).__name__ != "CopyList"            # `if xs is not None: ...`
    return s.node is None or isinstance(s.node, _SIMPLE)


def stores(s):
    """The names `s` binds wholly as lowered (a loop's bodies included)."""
    if isinstance(s, Control):
        found = name_ids(s.target, gast.Store) if isinstance(s, For) else set()
        for t in s.body + s.orelse:
            found |= stores(t)
        return found
    if isinstance(s, Accumulate) and s.node is None:
        return {s.target}
    if isinstance(s, Generated) and s.node is None:
        return _generated_stores(s)
    return name_ids(s.node, gast.Store)


def _generated_stores(s):
    kind = type(s).__name__
    if kind in _NO_STORE:
        return set()
    if kind == "Reset":
        return set(s.targets)
    if kind == "SplitStore":
        return {s.part} | (set() if s.written_out else {s.target})
    if kind == "RruleCall":
        return {s.target, s.pullback}
    return {s.target}


def expressions(s):
    """The gast trees of a simple statement `s` (its node, or its fields as built)."""
    if isinstance(s, Accumulate) and s.node is None:
        return [s.value]
    if isinstance(s, Generated) and s.node is None:
        return [v for v in _values(s) if isinstance(v, gast.AST)]
    return [s.node]


def rename_reads(s, old, new, rename):
    """The reads of `old` in the simple statement `s` read `new` (`rename(tree, old,
    new)` renames inside a gast tree; a generated statement's name fields are set)."""
    for tree in expressions(s):
        rename(tree, old, new)
    if isinstance(s, Generated) and s.node is None:
        for field in _fields(s):
            value = getattr(s, field)
            if value == old:
                setattr(s, field, new)
            elif isinstance(value, list) and old in value:
                value[:] = [new if v == old else v for v in value]


def header(s, visit):
    """visit(e) for the gast expressions of a loop's or branch's header."""
    if isinstance(s, For):
        visit(s.target)
        visit(s.iter)
    else:
        visit(s.test)


def _values(s):
    for field in _fields(s):
        value = getattr(s, field)
        for v in value if isinstance(value, list) else [value]:
            if isinstance(v, (str, gast.AST)):
                yield v
