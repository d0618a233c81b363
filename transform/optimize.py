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


def _drop_dead_resets(block):
    """Remove `dx = None` at the top level of a block when nothing after it reads dx."""
    out = []
    for k, stmt in enumerate(block):
        if _is_reset(stmt):
            name = stmt.targets[0].id
            later = block[k + 1:]
            if not any(isinstance(n, gast.Name) and n.id == name
                       for s in later for n in gast.walk(s)):
                continue
        out.append(stmt)
    return out


def _is_reset(stmt):
    return isinstance(stmt, gast.Assign) and len(stmt.targets) == 1 \
        and isinstance(stmt.targets[0], gast.Name) and isinstance(stmt.value, gast.Constant) \
        and stmt.value.value is None and stmt.targets[0].id.startswith("d")


def optimize(rrule):
    """Rewrite the rrule FunctionDef in place."""
    _InlineForcedThunks().visit(rrule)
    for node in gast.walk(rrule):
        if isinstance(node, gast.FunctionDef) and node.name == "pullback":
            node.body = _drop_dead_resets(node.body)
    return rrule
