"""After optimizing: check that the pullback binds every adjoint before any read of it.

    def pullback(dy):                         def pullback(dy):
        for i in reversed(steps):                 dh = None
            if dt is not None:                    for i in reversed(steps):
                dh = dt            -- ok if -->       if dt is not None:
            dx = accum(dx, dh)                            dh = dt
                                                      dx = accum(dx, dh)

The reverse stage decides which adjoints start as None from its zero/maybe forms;
this definite-assignment walk over the code actually emitted (after every optimizer
pass) makes a gap in that bookkeeping a compile-time error, never an
UnboundLocalError from inside generated code (nor a None silently read as a zero
where the forms said a value is certain).
"""
import gast


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
    _block(fn.body, set(params), set(names), found)
    return found


def _block(block, bound, names, found):
    """Walk a statement list; `bound` (updated in place) holds the certainly bound names."""
    for s in block:
        if isinstance(s, gast.If):
            _reads(s.test, bound, names, found)
            then, other = set(bound), set(bound)
            _block(s.body, then, names, found)
            _block(s.orelse, other, names, found)
            bound.clear()
            bound.update(then & other)
        elif isinstance(s, (gast.For, gast.While)):
            _reads(s.iter if isinstance(s, gast.For) else s.test, bound, names, found)
            inner = set(bound)             # the first iteration binds the least
            if isinstance(s, gast.For):
                inner |= _stores(s.target)
            _block(s.body, inner, names, found)
            _block(s.orelse, set(bound), names, found)
        elif isinstance(s, gast.Delete):
            bound -= {n.id for t in s.targets for n in gast.walk(t) if isinstance(n, gast.Name)}
        elif isinstance(s, (gast.Assign, gast.AugAssign, gast.AnnAssign)):
            _reads(s.value, bound, names, found)
            targets = s.targets if isinstance(s, gast.Assign) else [s.target]
            for t in targets:
                if isinstance(s, gast.AugAssign):
                    _reads(t, bound, names, found, stores_too=True)
                else:
                    _reads(t, bound, names, found)
                bound |= _stores(t)
        else:
            _reads(s, bound, names, found)


def _reads(node, bound, names, found, stores_too=False):
    """Record loads (outside lambda bodies, which read their own parameters)."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, gast.Lambda):
            stack.extend(n.args.defaults)
            continue
        if isinstance(n, gast.Name) and (isinstance(n.ctx, gast.Load) or stores_too) \
                and n.id in names and n.id not in bound:
            found.add(n.id)
        stack.extend(gast.iter_child_nodes(n))


def _stores(target):
    return {n.id for n in gast.walk(target) if isinstance(n, gast.Name)
            and isinstance(n.ctx, gast.Store)}
