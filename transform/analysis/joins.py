"""Stage 5, analyze: joins of a list display whose cotangents go straight to the parts.

    t11 = [t6, t9, t10]                     dt6 = du[0:1]
    u = np.concatenate(t11)       ->        dt9 = du[1:255]
                                            dt10 = du[255:256]

`np.concatenate(parts)` (or `np.stack(parts)`) on a literal axis, where `parts` is a list
or tuple display bound once, in the statement just before the join, of names whose shapes
the shape analysis knows: each part's cotangent is its basic slice of g, the same view
`concatenate_vjp` would cut. `cut_joins` marks such a join's Prim with `cuts` (part name,
index into g); the reverse stage then sends each slice to its part, so no list of
cotangents is built, `list_cotangent` and a `part` per entry are not called, and the
backward sweep does not read the list (`statement_needs`: the tape does not keep it).

Left to the rule (`concatenate_vjp(g, parts, axis)`): a part of unknown shape or a
constant part, a list bound more than once or a parameter, a display that is not the
statement just before (a part could be rebound in between), and a join whose result the
function returns (the caller's cotangent may be a list).
"""
import gast
import numpy as np

from .index_shapes import literal_axis
from .shapes import shape_of
from ..ir import statements as ir
from ..ir.nodes import const
from ..ir.typed import walk
from ..ir.templates import clone

_JOINS = {np.concatenate: False, np.stack: True}        # the join adds an axis?


def cut_joins(body, shapes):
    """Set `prim.cuts = [(part name, index node)]` on the joins cut directly (`body`:
    typed, ir/statements.py)."""
    returned = {s.value.id for s, _ in walk(body)
                if isinstance(s, ir.Return) and isinstance(s.value, gast.Name)}
    for block in _blocks(body):
        for before, s in zip(block, block[1:]):
            cuts = _cuts(before, s, shapes, returned)
            if cuts is not None:
                s.prim.cuts = cuts


def _blocks(body):
    yield body
    for s in body:
        if isinstance(s, ir.Control):
            for inner in (s.body, s.orelse):
                if inner:
                    yield from _blocks(inner)


def _cuts(before, s, shapes, returned):
    """The parts of the join `s` (a typed `RuleCall` of np.concatenate or np.stack whose
    list display `before` is the statement just before) and their indices into g, or
    None."""
    if not isinstance(s, ir.RuleCall) or not isinstance(before, ir.Pack):
        return None
    fn, args = s.prim.fn, before.args
    if fn not in _JOINS or getattr(before.prim, "keys", None) or not args \
            or not all(isinstance(a, gast.Name) for a in args):
        return None
    arrays, axis = s.inputs.get("arrays"), literal_axis(s.inputs.get("axis"))
    if axis is None or not isinstance(arrays, gast.Name) or s.target in returned \
            or arrays.id in shapes.params or len(shapes.defs.get(arrays.id, ())) != 1 \
            or before.target != arrays.id:
        return None
    new_axis = _JOINS[fn]
    parts = [shape_of(shapes.cls.get(a.id)) for a in args]
    if not parts[0] or any(sh is None or len(sh) != len(parts[0]) for sh in parts):
        return None
    ndim = len(parts[0]) + new_axis
    if not -ndim <= axis < ndim:
        return None
    return [(a.id, _index(axis % ndim, k, parts, new_axis)) for k, a in enumerate(args)]


def _index(axis, k, parts, new_axis):
    """g's index for part k: its position on the new axis, or its run on the joined one."""
    if new_axis:
        cut = const(k)
    else:
        start = sum(sh[axis] for sh in parts[:k])
        cut = gast.Slice(lower=const(start), upper=const(start + parts[k][axis]), step=None)
    if not axis:
        return cut
    lead = [gast.Slice(lower=None, upper=None, step=None) for _ in range(axis)]
    return gast.Tuple(elts=lead + [cut], ctx=gast.Load())


def cut_contributions(cuts, g, is_active):
    """(part, g[index], computed, lazy, maybe None, numeric) per active part; `g` is the
    cotangent's expression (a name, or `unthunk(name)`: a Thunk keeps its value)."""
    return [(name, gast.Subscript(value=clone(g), slice=clone(index), ctx=gast.Load()),
             True, False, False, True) for name, index in cuts if is_active(name)]
