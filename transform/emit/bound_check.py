"""Stage 8, emit (first): check that the pullback binds every adjoint before any read of it.

    def pullback(dt):
        for i in reversed(steps):
            if dt2 is not None:
                dh = dt2                 # bound on one path only...
            da = accum_eager(dh, dt)     # ...read on every path: refused at compile time
                                         # unless `dh = None` precedes the loop

The reverse stage decides which adjoints start as None from its zero/maybe forms;
this definite-assignment walk over the code actually emitted (after every optimizer
pass) turns a gap in that bookkeeping into an internal compiler error raised before
anything runs, never an UnboundLocalError from inside generated code.
"""
import gast

from ..ir.nodes import _names_below


def check_pullback(rrule, adjoints):
    """Raise (a compiler bug, reported before any generated code runs) if the pullback
    nested in `rrule` may read an adjoint before binding it."""
    for fn in rrule.body:
        if isinstance(fn, gast.FunctionDef):
            unbound = unbound_reads(fn, adjoints)
            if unbound:
                raise RuntimeError("the backward sweep may read adjoint(s) "
                                   f"{', '.join(sorted(unbound))} before binding them")


def unbound_reads(fn, names):
    """Names in `names` that `fn`'s body may read before assigning them."""
    params = {a.id for a in fn.args.args + fn.args.kwonlyargs}
    found = set()
    bound = set(params)
    body = fn.body
    for k, s in enumerate(body):          # the straight-line start runs on every call:
        if type(s) in _COMPOUND:          # a read before binding there fails every test,
            body = body[k:]               # so only its bindings are collected
            break
        if type(s) is gast.Assign:
            bound.update(n.id for t in s.targets for n in _names_below(t))
    else:
        return found
    _block(body, bound, set(names), found)
    return found


_COMPOUND = (gast.If, gast.For, gast.While, gast.Delete, gast.AugAssign)


def _block(block, bound, names, found):
    """Walk a statement list; `bound` (updated in place) holds the certainly bound names."""
    for s in block:
        kind = type(s)
        if kind is gast.If:
            _reads(s.test, bound, names, found)
            then, other = set(bound), set(bound)
            _block(s.body, then, names, found)
            _block(s.orelse, other, names, found)
            bound.clear()
            bound.update(then & other)
        elif kind is gast.For or kind is gast.While:
            _reads(s.iter if kind is gast.For else s.test, bound, names, found)
            inner = set(bound)             # the first iteration binds the least
            if kind is gast.For:
                inner.update(n.id for n in _names_below(s.target))
            _block(s.body, inner, names, found)
            _block(s.orelse, set(bound), names, found)
        elif kind is gast.Delete:
            bound.difference_update(n.id for n in _names_below(s))
        else:
            bound.update(_reads(s, bound, names, found, kind is gast.AugAssign))


def _reads(node, bound, names, found, augmented=False):
    """Record reads of unbound names; return the names stored. A thunk's lambda reads
    its own parameters (`lambda dx=dx: ...`): only the defaults read the pullback's."""
    below = _names_below(node)
    stores, params, Store, Load = [], None, gast.Store, gast.Load
    for n in below:
        ctx = type(n.ctx)
        if ctx is Store:
            stores.append(n.id)
            if not augmented:
                continue
        elif ctx is not Load:
            continue
        if n.id in names and n.id not in bound:
            if params is None:            # rare: only where a read may be unbound
                params = {m.id for m in below if type(m.ctx) is gast.Param}
            if n.id not in params:
                found.add(n.id)
    return stores
