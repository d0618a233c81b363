"""Which names a `try` statement reads, binds, and finds bound (try_blocks.py).

    def f(x, c):             available at the try: x, c, k (bound on an earlier line)
        k = 2                bound_outside: x, c, k, y
        try: ...             loaded_outside: names read anywhere but in the try
        y = k * x

"Bound before" is by line: a name bound on an earlier line of the function (or a
parameter, or a closure variable) is available; one bound only later is not, even in a
loop (the statement could read it before its first assignment).
"""
import gast

from ..ir.nodes import walk


class TryScope:
    """The names around `protected` (the body and handlers of the Try `node` of
    `fdef`; its else and finally blocks are outside)."""

    def __init__(self, src, fdef, node, protected):
        self.node = node
        inside = {id(n) for n in walk(protected)}
        args = fdef.args
        self.params = {a.id for a in args.args + args.kwonlyargs
                       if isinstance(a, gast.Name)}
        self.params.update(a.id for a in (args.vararg, args.kwarg)
                           if isinstance(a, gast.Name))
        self.free = set(src.fn.__code__.co_freevars)
        self.bound_outside, self.bound_before, self.loaded_outside = set(), set(), set()
        for n in walk(fdef):
            if id(n) in inside or n is fdef:
                continue
            name = _bound_name(n)
            if name is not None and not _is_param(n, args):
                self.bound_outside.add(name)
                if getattr(n, "lineno", node.lineno) < node.lineno:
                    self.bound_before.add(name)
            if isinstance(n, gast.Name) and isinstance(n.ctx, gast.Load):
                self.loaded_outside.add(n.id)
            elif isinstance(n, gast.AugAssign) and isinstance(n.target, gast.Name):
                self.loaded_outside.add(n.target.id)              # `k += 1` reads k

    def available(self):
        """Names certainly bound when the statement starts (as far as lines tell)."""
        return self.params | self.free | self.bound_before

    def written(self, protected):
        """Names the statement binds in the function's scope (not an `except ... as e`
        name, which Python unbinds after its handler)."""
        caught = {h.name.id for h in protected.handlers if isinstance(h.name, gast.Name)}
        return {name for n in _own_scope(protected)
                for name in [_bound_name(n)] if name is not None} - caught

    def loaded(self, protected):
        """Names read anywhere in the statement (nested defs and lambdas included: they
        may close over the function's locals)."""
        read = {n.id for n in walk(protected)
                if isinstance(n, gast.Name) and isinstance(n.ctx, gast.Load)}
        return read | {n.target.id for n in walk(protected)       # `k += 1` reads k
                       if isinstance(n, gast.AugAssign) and isinstance(n.target, gast.Name)}


def _bound_name(n):
    if isinstance(n, gast.Name) and isinstance(n.ctx, (gast.Store, gast.Del)):
        return n.id
    if isinstance(n, (gast.FunctionDef, gast.ClassDef)):
        return n.name
    if isinstance(n, gast.alias):
        return (n.asname or n.name).split(".")[0]
    return None


def _is_param(n, args):
    return any(n is a for a in args.args + args.kwonlyargs + [args.vararg, args.kwarg])


def _own_scope(node):
    todo = [node]
    while todo:
        n = todo.pop()
        yield n
        if n is node or not isinstance(n, (gast.FunctionDef, gast.Lambda, gast.ClassDef,
                                           gast.comprehension)):
            todo.extend(gast.iter_child_nodes(n))


def definitely_bound(stmts):
    """Names every normal completion of `stmts` binds (top-level assignments, imports,
    defs, `with` bodies, names bound in both branches of an `if`), or None when it
    never completes normally (it ends in a `raise`)."""
    bound = set()
    for s in stmts:
        if isinstance(s, gast.Raise):
            return None
        if isinstance(s, (gast.Assign, gast.AnnAssign, gast.AugAssign)):
            targets = s.targets if isinstance(s, gast.Assign) else [s.target]
            if not isinstance(s, gast.AnnAssign) or s.value is not None:
                bound.update(n.id for t in targets for n in walk(t)
                             if isinstance(n, gast.Name) and isinstance(n.ctx, gast.Store))
        elif isinstance(s, (gast.FunctionDef, gast.ClassDef)):
            bound.add(s.name)
        elif isinstance(s, (gast.Import, gast.ImportFrom)):
            bound.update((a.asname or a.name).split(".")[0] for a in s.names)
        elif isinstance(s, (gast.With, gast.If)):
            branches = [definitely_bound(s.body)] + \
                ([definitely_bound(s.orelse)] if isinstance(s, gast.If) else [])
            done = [b for b in branches if b is not None]
            if not done:
                return None
            bound |= set.intersection(*done)
    return bound
