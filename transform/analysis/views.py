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

from .activity import defined_by, iter_statements, needed_names
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
            any(n != w and n in group and group[n] == group[w] for n in needed)}


def _copy_parents(body):
    """name -> the names it was bound to as a second name (`c = a`)."""
    parents = {}
    for s, _ in iter_statements(body):
        names, prim = defined_by(s)
        if names and prim is not None and prim.kind == "copy" and \
                isinstance(prim.args[0], gast.Name):
            parents.setdefault(names[0], set()).add(prim.args[0].id)
    return parents


def _stored(body):
    return {s.prim.args[0].id for s, _ in iter_statements(body)
            if isinstance(s, gast.Assign) and s.prim is not None and s.prim.kind == "setitem"}


def _view_parents(body, shapes):
    """name -> the names it may be a view of (a getitem of a scalar class is none)."""
    parents = {}
    for s, _ in iter_statements(body):
        names, prim = defined_by(s)
        if not names or prim is None or prim.kind != "rule":
            continue
        if prim.fn is operator.getitem and shapes is not None and \
                shapes.cls.get(names[0]) == "scalar":
            continue
        if prim.fn is operator.getitem or prim.fn in VIEW_FUNCTIONS:
            base = next(iter(prim.inputs.values()), None)
            if isinstance(base, gast.Name):
                parents.setdefault(names[0], set()).add(base.id)
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
