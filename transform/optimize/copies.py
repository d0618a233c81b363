"""Optimization: a copy into a temporary is replaced by the name it copies.

    dt2 = dt3                     (gone)
    dx = dt2 * x          ->      dx = dt3 * x
    dx = dx + dt2 * x             dx = dx + dt3 * x

The reverse stage copies an adjoint into the adjoint of a temporary wherever the
primal copied (`t3 = 1.0 + t2` passes dt3 to dt2 unchanged); each copy is a store
and a load per iteration, and keeps a temporary alive. A copy goes when every read of its
temporary follows within a few statements of the same block, before either name is
rebound; `b = a` there becomes `b = b` and goes too.

A pass of the typed phase (session 38): it runs on both typed sweeps before they are
lowered, matches the copies by class (an `Accumulate` "set" or a `Bind` of a name, the
user's `t = x`), and counts, renames and finds bindings through `typed_views` (what
each statement will be as gast). The sweeps are scanned as the lowered rrule is: the
forward sweep with the pullback's `def` standing before its `return` (`_Pullback`),
and a name the pullback rebinds that is no adjoint counted twice more, as the
pullback's keyword snapshot will mention it (`t1=t1`): such a copy is never propagated,
as it was not when this pass ran on the lowered rrule.
"""
import gast

from ..ir.generated import Bind
from ..ir.nodes import name_ids
from ..ir.statements import Accumulate, Control
from .passes import Pass
from . import typed_views as view


def propagate_copies(forward, backward, temporaries, adjoints=frozenset(),
                     params=frozenset()):
    """Propagate the copies into `temporaries` in the typed sweeps (lists, in place);
    `adjoints`: the names chosen for adjoints, `params`: the pullback's parameters."""
    pullback = _Pullback(backward, adjoints, params)
    block = forward[:-1] + [pullback] + forward[-1:]
    counts = dict(pullback.counts)
    for s in forward:
        view.count(s, counts)
    _propagate_copies(block, temporaries, counts)
    forward[:] = [s for s in block if s is not pullback]


class _Pullback:
    """The pullback's `def` in the forward sweep's block, as the lowered rrule has it:
    its body the backward sweep, its snapshot naming what the sweep rebinds."""

    def __init__(self, body, adjoints, params):
        self.body, self.stores = body, set()
        for s in body:
            self.stores |= view.stores(s)
        self.extra = dict.fromkeys(params, 1)
        for name in self.stores - set(adjoints):
            self.extra[name] = 2                     # `def pullback(..., *, t1=t1)`
        self.counts = self.mentions({})              # (the forward sweep's scans read
                                                     # them before the body changes)

    def mentions(self, into):
        for name, n in self.extra.items():
            into[name] = into.get(name, 0) + n
        for s in self.body:
            view.count(s, into)
        return into


def _propagate_copies(block, temporaries, counts):
    """`a = b; ...a...` -> `...b...` for a temporary a whose every read follows in this
    block before a or b is rebound; `b = a` there becomes `b = b` and goes."""
    k = 0
    while k < len(block):
        s = block[k]
        if isinstance(s, (Control, _Pullback)):
            for body in (s.body, getattr(s, "orelse", [])):
                _propagate_copies(body, temporaries, counts)
        copied = _copy(s)
        if copied is not None and copied[0] == copied[1]:
            _shift(counts, copied[0], -2)
            del block[k]                             # a = a
            continue
        copy_of = _copy_of(s, temporaries)
        if copy_of is None or not _replace_reads(block, k, *copy_of, counts):
            k += 1


def _copy(s):
    """(target, source) if `s` is `target = source` of two names as lowered."""
    if isinstance(s, Accumulate) and s.node is None:
        value = s.value if s.mode == "set" else None
    elif isinstance(s, Bind) and s.node is None:
        value = s.value
    elif isinstance(s, (Control, _Pullback)) or s.node is None:
        return None
    elif isinstance(s.node, gast.Assign) and len(s.node.targets) == 1 \
            and isinstance(s.node.targets[0], gast.Name):
        return (s.node.targets[0].id, s.node.value.id) \
            if isinstance(s.node.value, gast.Name) else None
    else:
        return None
    return (s.target, value.id) if isinstance(value, gast.Name) else None


def _copy_of(s, temporaries):
    copied = _copy(s)
    if copied is not None and copied[0] in temporaries and copied[0] != copied[1]:
        return copied
    return None


def _replace_reads(block, k, a, b, counts):
    """Replace the reads of a after block[k] by b, if all of them are in reach."""
    reads, end, dropped = counts.get(a, 0) - 1, k + 1, []
    while reads and end < min(len(block), k + _REACH):
        t = block[end]
        here = _mentions(t, a)
        if here and not _simple(t) or a in _stores(t) or _read_late(t, a):
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
        if not isinstance(t, _Pullback):             # (a is not mentioned there)
            view.rename_reads(t, a, b, _rename_reads)
    # the mentions of a lambda's own parameter `a` stay (the tree may share Name nodes)
    gone = counts.get(a, 0) - sum(_mentions(t, a) for t in block[k + 1:end]
                                  if t not in dropped)
    _shift(counts, b, gone - 2 - 2 * len(dropped))   # `a = b` goes too
    _shift(counts, a, -gone)
    block[k:end] = [t for t in block[k + 1:end] if t not in dropped]
    return True


_REACH = 16        # statements scanned for a copy's reads (adjoint copies are read nearby)


def _shift(counts, name, delta):
    counts[name] = counts.get(name, 0) + delta


def _mentions(t, name):
    return t.counts.get(name, 0) if isinstance(t, _Pullback) else view.mentions(t, name)


def _simple(t):
    return not isinstance(t, _Pullback) and view.simple(t)


def _stores(t):
    return t.stores if isinstance(t, _Pullback) else view.stores(t)


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


def _read_late(t, name):
    """Whether a lambda in `t` reads `name` as a free name (when it runs, not when it
    is made): renamed, it would read the other name's value at that time."""
    if isinstance(t, _Pullback) or not view.simple(t):
        return False                                 # (refused anyway if it mentions name)
    for tree in view.expressions(t):
        for fn in gast.walk(tree):
            if isinstance(fn, gast.Lambda) and name not in _params(fn) and \
                    name in name_ids(fn.body, gast.Load):
                return True
    return False


class PropagateCopies(Pass):
    """Replace copies into temporaries by the names they copy (the module docstring's
    example), on both typed sweeps."""
    phase = "typed"
    needs = ("temporaries",)

    def run(self, facts):
        propagate_copies(facts.forward, facts.backward, facts.temporaries,
                         facts.adjoints, facts.params)
