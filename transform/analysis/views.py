"""Stage 5, analyze: views the generated code must make its own copies of.

Generated code writes an element store in place (`b[1:] = t3`) unless the backward sweep
reads b's old value. A *view* of b (a name bound by b[...], b.reshape, b.T, ...) or the
array b is a view of shares that memory, so the store changes it as well:

    t1 = b[1:]           t1: a view of b, read by t3's adjoint (dt2 = dt3 * t1)
    t3 = t1 * t2         (`b[1:] *= x` normalizes to exactly these three lines)
    b[1:] = t3           ->  after `t1 = b[1:]`, generated code adds `t1 = unviewed(t1)`

    w = v.reshape(-1)    v: read by cos's adjoint (sin(v))
    t = np.cos(v)
    w[::-1] = t          ->  after `w = v.reshape(-1)`: `w = unviewed(w)`

`unviewed(x)` copies x only if it is an ndarray view, so scalars cost nothing. The user's
program reads neither t1 nor v after the store (the alias check refuses that), so
the copies keep its meaning.
"""
import operator

import gast
import numpy as np

from .activity import needed_names, walk
from ..ir import statements as ir
from ..alias.tables import VIEW_FUNCTIONS


def owned_views(body, activity, shapes=None):
    """Names bound to a view that shares memory with an element store's target, and that
    the backward sweep reads (or that is itself stored into while a name sharing its
    memory is read): each gets its own copy where it is bound."""
    written = _stored(body)
    if not written:
        return set()
    parents = _view_parents(body, shapes)
    group = _components(parents)
    needed = needed_names(body, activity, shapes)[0]
    stored_groups = {group[w] for w in written if w in group}
    needed_groups = {group[n] for n in needed if n in group}
    owned = set()
    for name in parents:
        if group[name] not in stored_groups:
            continue
        if name in needed or name in written and group[name] in needed_groups:
            owned.add(name)
    return owned


def aliased_stores(body, activity, shapes=None):
    """Element stores whose array has a second plain name (`c = a`, no copy made) that
    the backward sweep reads: generated code writes those into a copy, since `c` is
    the array itself, which unviewed() would not copy.

        c = a                c: a second name for a, read by t1's adjoint
        t1 = c * c
        a[0] = v       ->    `a = a.copy()` before the store
    """
    written = _stored(body)
    copies = _copy_parents(body)
    if not written or not copies:
        return set()
    parents = _view_parents(body, shapes)
    for name, bases in copies.items():
        parents.setdefault(name, set()).update(bases)
    group = _components(parents)
    needed = needed_names(body, activity, shapes)[0]
    copy_groups = {group[n] for n in copies}
    return {w for w in written if w in group and group[w] in copy_groups and
            any(n != w and n in group and group[n] == group[w] for n in needed)} - \
        _fresh_stores(body)


def _fresh_stores(body):
    """Names each of whose element stores follows, in its own block, a binding of the
    name to a fresh copy that no statement between them names: the store changes that
    copy only, whatever names shared the array the name held before (the loop's
    `u = un` of the last step).

        un = u.copy()            fresh: no other name holds this array
        un[1:-1] = t9            changes it only
        u = un                   (a second name from here on)
    """
    fresh, other = set(), set()
    _scan_fresh(body, fresh, other)
    return fresh - other


def _scan_fresh(block, fresh, other):
    copied = set()                  # bound to a fresh copy in this block, not named since
    for s in block:
        match s:
            case ir.Control():
                for inner in (s.body, s.orelse):
                    _scan_fresh(inner, fresh, other)
                copied -= _mentioned(s.node)
            case ir.SetItem(base=gast.Name(id=w)):
                alone = w in copied and w not in _mentioned(s.node.value)
                (fresh if alone else other).add(w)
                copied -= _mentioned(s.node) - {w}
            case ir.RuleCall() if s.prim.fn is np.copy:
                copied -= _mentioned(s.node)
                copied.add(s.target)
            case _:
                copied -= _mentioned(s.node)


def _mentioned(node):
    return {n.id for n in gast.walk(node) if isinstance(n, gast.Name)}


def _copy_parents(body):
    """name -> the names it was bound to as a second name (`c = a`)."""
    parents = {}
    for s, _ in walk(body):
        if isinstance(s, ir.Copy) and isinstance(s.source, gast.Name):
            parents.setdefault(s.target, set()).add(s.source.id)
    return parents


def _stored(body):
    return {s.base.id for s, _ in walk(body) if isinstance(s, ir.SetItem)}


def _view_parents(body, shapes):
    """name -> the names it may be a view of (a getitem of a scalar class is none)."""
    parents = {}
    for s, _ in walk(body):
        if not isinstance(s, ir.RuleCall):
            continue
        fn = s.prim.fn
        if fn is operator.getitem and shapes is not None and \
                shapes.cls.get(s.target) == "scalar":
            continue
        if fn is operator.getitem or fn in VIEW_FUNCTIONS:
            base = next(iter(s.inputs.values()), None)
            if isinstance(base, gast.Name):
                parents.setdefault(s.target, set()).add(base.id)
    return parents


def _components(parents):
    """name -> a representative of the names sharing memory with it (union-find)."""
    root = {}

    def find(n):
        while root.setdefault(n, n) != n:
            root[n] = root[root[n]]
            n = root[n]
        return n
    for child, bases in parents.items():
        for base in bases:
            root[find(child)] = find(base)
    return {n: find(n) for n in list(root)}
