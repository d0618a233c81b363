"""Optimization: a copy into a temporary is replaced by the name it copies.

    dt2 = dt3                     (gone)
    dx = dt2 * x          ->      dx = dt3 * x
    dx = dx + dt2 * x             dx = dx + dt3 * x

The reverse stage copies an adjoint into the adjoint of a temporary wherever the
primal copied (`t3 = 1.0 + t2` passes dt3 to dt2 unchanged); each copy is a store
and a load per iteration, and keeps a temporary alive. A copy goes when every read of its
temporary follows within a few statements of the same block, before either name is
rebound; `b = a` there becomes `b = b` and goes too.
"""
import gast

from ..ir.nodes import count_names, name_ids
from .name_counts import NameCounts, ScopedCounts
from .passes import Pass


def propagate_copies(rrule, temporaries, counts=None):
    """Propagate the copies into `temporaries` in `rrule`, in place; `counts`: the
    rrule's NameCounts, kept exact."""
    pullback = next(s for s in rrule.body if isinstance(s, gast.FunctionDef))
    counts = counts or NameCounts.of(rrule, pullback)
    _propagate_copies(rrule.body, temporaries, ScopedCounts(counts, pullback))


def _propagate_copies(block, temporaries, scope):
    """`a = b; ...a...` -> `...b...` for a temporary a whose every read follows in this
    block before a or b is rebound; `b = a` there becomes `b = b` and goes."""
    k = 0
    while k < len(block):
        s = block[k]
        for field in ("body", "orelse"):
            if isinstance(s, (gast.For, gast.While, gast.If, gast.FunctionDef)):
                _propagate_copies(getattr(s, field, None) or [], temporaries, scope.enter(s))
        if isinstance(s, gast.Assign) and len(s.targets) == 1 \
                and isinstance(s.targets[0], gast.Name) and isinstance(s.value, gast.Name) \
                and s.targets[0].id == s.value.id:
            scope.shift(s.value.id, -2)
            del block[k]                             # a = a
            continue
        copy_of = _copy_of(s, temporaries)
        if copy_of is None or not _replace_reads(block, k, *copy_of, scope):
            k += 1


def _copy_of(s, temporaries):
    if isinstance(s, gast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], gast.Name) \
            and isinstance(s.value, gast.Name) and s.targets[0].id in temporaries \
            and s.targets[0].id != s.value.id:
        return s.targets[0].id, s.value.id
    return None


def _replace_reads(block, k, a, b, scope):
    """Replace the reads of a after block[k] by b, if all of them are in reach."""
    reads, end, dropped = scope.get(a) - 1, k + 1, []
    while reads and end < min(len(block), k + _REACH):
        t = block[end]
        here = _count(t, a)
        if here and not isinstance(t, (gast.Assign, gast.AugAssign, gast.Expr, gast.Return)) \
                or a in _stores(t) or _read_late(t, a):
            return False
        reads -= here
        end += 1
        if _copy_of(t, {b}) == (b, a):
            dropped.append(t)                        # b = a is b = b now
        elif b in _stores(t):
            break                                    # t itself reads a before b changes
    if reads:
        return False
    for t in block[k + 1:end]:
        _rename_reads(t, a, b)
        scope.counts.changed(t)
    # the mentions of a lambda's own parameter `a` stay (the tree may share Name nodes)
    gone = scope.get(a) - sum(_count(t, a) for t in block[k + 1:end] if t not in dropped)
    scope.shift(b, gone - 2 - 2 * len(dropped))   # `a = b` goes too
    scope.shift(a, -gone)
    block[k:end] = [t for t in block[k + 1:end] if t not in dropped]
    return True


_REACH = 16        # statements scanned for a copy's reads (adjoint copies are read nearby)


def _count(node, name):
    return count_names(node, {}).get(name, 0)


def _rename_reads(node, old, new):
    """Loads of `old` below node read `new` instead, except in the body of a lambda whose
    parameter `old` is: there `old` is that parameter, bound when the lambda is made to
    its default (renamed). `lambda dt1=dt1: dt1 * 1.1` becomes `lambda dt1=db: dt1 * 1.1`;
    `lambda dt1=db: db * 1.1` would read db when the thunk runs, after the statement
    rebinds db (session 31)."""
    if isinstance(node, gast.Lambda) and old in _params(node):
        for d in node.args.defaults + [d for d in node.args.kw_defaults if d is not None]:
            _rename_reads(d, old, new)
    elif isinstance(node, gast.Name):
        if node.id == old and isinstance(node.ctx, gast.Load):
            node.id = new
    else:
        for child in gast.iter_child_nodes(node):
            _rename_reads(child, old, new)


def _params(fn):
    args = fn.args
    return {p.id for p in args.posonlyargs + args.args + args.kwonlyargs}


def _read_late(node, name):
    """Whether a lambda below `node` reads `name` as a free name (when it runs, not
    when it is made): renamed, it would read the other name's value at that time."""
    for fn in gast.walk(node):
        if isinstance(fn, gast.Lambda) and name not in _params(fn) and \
                name in name_ids(fn.body, gast.Load):
            return True
    return False


def _stores(stmt):
    return name_ids(stmt, gast.Store)


class PropagateCopies(Pass):
    """Replace copies into temporaries by the names they copy (the module docstring's
    example)."""
    needs = ("counts", "temporaries")
    keeps = ("counts",)

    def run(self, facts):
        propagate_copies(facts.rrule, facts.temporaries, facts.counts)
