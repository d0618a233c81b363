"""The names a typed statement (ir/statements.py, ir/generated.py) mentions, binds and
reads, from its fields, before it is lowered: what the optimiser's typed phase
(optimize/optimize.py, TYPED_PASSES) asks instead of walking gast.

    d = cotangent_zeros(x)      ZeroBuffer   mentions {d, x}   binds d   reads {x}
    d = unthunk(d)              Unthunk      mentions {d}      binds d   reads {d}
    d += v                      Accumulate   mentions {d, v}   binds -   reads {d, v}
    for i in reversed(s): ...   For          its header's names and its bodies'

The names are the sweep's values: the runtime helpers' names a lowering makes
(`cotangent_zeros`, `own`: the Vocabulary's, never a value's) are not among them. A simple statement that keeps its node (the user's,
`Push`, `Pop`, `Return`, a comment) answers by its node; a loop or branch by its header
(its node's own body is not its typed body) and its typed bodies.
"""
import gast

from .generated import Generated, SplitStore
from .nodes import name_ids
from .statements import Accumulate, Control, For

# fields of generated statements that hold no name nor expression
_NOT_NAMES = frozenset({"helper", "fresh", "owned", "written_out", "method", "prim",
                        "origin_line", "comment", "mode"})
# generated statements whose value reads their target (`d = unthunk(d)`)
_READ_OWN = frozenset({"Unthunk", "Own", "ShortenList", "ListCotangent", "CopyBeforeStore",
                       "Unview", "ReuseBuffer", "CopyList"})
# generated statements that bind no name wholly (`d[i] += g`, `t, t_pb = f_rrule(a)`)
_NO_BINDING = frozenset({"SliceAdd", "PopEntries", "CopyList", "RruleCall", "TapeStart",
                         "TapeReader", "AddProduct", "Scale"})


def typed_statements(block):
    """Every typed statement of a block, those in loop and branch bodies included."""
    stack = list(reversed(block))
    while stack:
        s = stack.pop()
        yield s
        if isinstance(s, Control):
            stack.extend(reversed(s.body + s.orelse))


def mentioned(s, into=None):
    """The names `s` mentions (added to the set `into`)."""
    found = set() if into is None else into
    if isinstance(s, Control):
        header_names(s, found)
        for t in s.body + s.orelse:
            mentioned(t, found)
    elif isinstance(s, Accumulate):
        found.add(s.target)
        name_ids(s.value, None, found)
    elif isinstance(s, Generated):
        _field_names(s, _fields(s), found)
    else:
        name_ids(s.node, None, found)
    return found


def bound(s):
    """The one name `s` binds wholly (`name = value`), else None."""
    if isinstance(s, Accumulate):
        return None if s.mode == "in_place" else s.target
    if isinstance(s, Generated):
        kind = type(s).__name__
        if kind == "Reset":
            return s.targets[0] if len(s.targets) == 1 else None
        if kind == "SplitStore":
            return s.part if s.written_out else None
        return None if kind in _NO_BINDING else s.target
    node = s.node
    if isinstance(node, gast.Assign) and len(node.targets) == 1 and \
            isinstance(node.targets[0], gast.Name):
        return node.targets[0].id
    return None


def reads(s):
    """The names the value `bound(s)` is bound to reads."""
    if isinstance(s, Accumulate):
        own = set() if s.mode in ("set", "own") else {s.target}
        return name_ids(s.value, None, own)
    if isinstance(s, Generated):
        fields = [f for f in _fields(s) if f not in ("target", "targets", "part")]
        if isinstance(s, SplitStore) and s.written_out:
            fields.append("target")                  # `p = d[i].copy()` reads d
        found = _field_names(s, fields, set())
        if type(s).__name__ in _READ_OWN:
            found.add(s.target)
        return found
    return name_ids(s.node.value) if bound(s) is not None else set()


def overwrites(s, name):
    """`name = <a value not reading name>`: the old value of name is dead."""
    return bound(s) == name and name not in reads(s)


def header_names(s, into):
    """The names a loop's or branch's header mentions (added to the set `into`)."""
    if isinstance(s, For):
        name_ids(s.target, None, into)
        return name_ids(s.iter, None, into)
    return name_ids(s.test, None, into)


def _fields(s):
    return [k.lstrip("_") for k in vars(s) if k != "node" and k.lstrip("_") not in _NOT_NAMES]


def _field_names(s, fields, found):
    for field in fields:
        value = getattr(s, field)
        for v in value if isinstance(value, list) else [value]:
            if isinstance(v, str):
                found.add(v)
            elif isinstance(v, gast.AST):
                name_ids(v, None, found)
    return found
