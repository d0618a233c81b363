"""Stage 7, optimize: small rewrites that keep the generated code lean.

    unthunk(Thunk(lambda a=a: e))   ->   e
    dx = None  (never read again)   ->   (removed)
"""
import gast


class _InlineForcedThunks(gast.NodeTransformer):
    """A thunk forced where it is made is just its expression."""

    def visit_Call(self, node):
        self.generic_visit(node)
        if _is_call(node, "unthunk") and len(node.args) == 1 and _is_call(node.args[0], "Thunk"):
            lam = node.args[0].args[0]
            if isinstance(lam, gast.Lambda) and all(
                    isinstance(d, gast.Name) and d.id == a.id
                    for a, d in zip(lam.args.args, lam.args.defaults)):
                return lam.body
        return node


def _is_call(node, name):
    return isinstance(node, gast.Call) and isinstance(node.func, gast.Name) \
        and node.func.id == name


def _names(stmt):
    return {n.id for n in gast.walk(stmt) if isinstance(n, gast.Name)}


def _drop_dead_resets(block):
    """Remove `dx = None` at the top level of a block when nothing after it reads dx."""
    later, keep = set(), []
    for stmt in reversed(block):             # one pass from the end: names used later
        if _is_reset(stmt) and stmt.targets[0].id not in later:
            continue
        keep.append(stmt)
        later |= _names(stmt)
    return keep[::-1]


def _is_reset(stmt):
    return isinstance(stmt, gast.Assign) and len(stmt.targets) == 1 \
        and isinstance(stmt.targets[0], gast.Name) and isinstance(stmt.value, gast.Constant) \
        and stmt.value.value is None and stmt.targets[0].id.startswith("d")


def _overwrites(stmt, name):
    """`name = <expr not reading name>`: the old value is dead."""
    return isinstance(stmt, gast.Assign) and len(stmt.targets) == 1 \
        and isinstance(stmt.targets[0], gast.Name) and stmt.targets[0].id == name \
        and name not in _names(stmt.value)


def _drop_overwritten_resets(loop, outside):
    """In a loop body: `dx = None` whose next use (cyclically) overwrites dx goes.

    Wrapping around to the next iteration is allowed only if dx is not used
    outside the loop (the last iteration's reset would be visible there).
    """
    body = loop.body
    names = [_names(s) for s in body]
    keep = []
    for k, stmt in enumerate(body):
        if _is_reset(stmt):
            name = stmt.targets[0].id
            after = [body[j] for j in range(k + 1, len(body)) if name in names[j]]
            before = [body[j] for j in range(k) if name in names[j]]
            if after and _overwrites(after[0], name):
                continue
            if not after and before and _overwrites(before[0], name) and name not in outside:
                continue
        keep.append(stmt)
    loop.body = keep or [gast.Pass()]


def _loops_with_outside_names(pullback):
    """(loop, names mentioned in the pullback outside that loop) for every loop."""
    counts = {}
    for n in gast.walk(pullback):
        if isinstance(n, gast.Name):
            counts[n.id] = counts.get(n.id, 0) + 1
    for node in gast.walk(pullback):
        if isinstance(node, gast.For):
            inside = {}
            for n in gast.walk(node):
                if isinstance(n, gast.Name):
                    inside[n.id] = inside.get(n.id, 0) + 1
            yield node, {name for name, c in counts.items() if c > inside.get(name, 0)}


def optimize(rrule, made_thunks=True):
    """Rewrite the rrule FunctionDef in place."""
    if made_thunks:
        _InlineForcedThunks().visit(rrule)
    for node in rrule.body:
        if isinstance(node, gast.FunctionDef) and node.name == "pullback":
            node.body = _drop_dead_resets(node.body)
            for loop, outside in list(_loops_with_outside_names(node)):
                _drop_overwritten_resets(loop, outside)
    return rrule
