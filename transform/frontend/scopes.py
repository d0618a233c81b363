"""Desugar helpers for `global` declarations and sets.

    global G                  ->   (nothing: G is only read, so it is a global anyway)
    return x * G                   return x * G

    s = {k % 2 for k in ks}   ->   s = set([k % 2 for k in ks])
    t = {a, b}                ->   t = set((a, b))

A `global` name the function assigns, deletes or augments is refused at that write: the
generated code would write the module's global once per compile path, not as the primal
does. A set holds its items in hash order and drops equal ones, so no cotangent can be
matched to them: `set(...)` of constants runs as it is, and a value being differentiated
reaching it is refused by the reasons check (transform/analysis/reasons.py).
"""
import gast

from ..ir.nodes import load as _load, located as _at, walk


def drop_read_only_globals(src, fdef):
    """Remove the `global` declarations of `fdef` (not of nested defs) whose names it
    only reads; raise TransformError at the first write of a declared name."""
    declared = {}
    for node in _own_scope(fdef):
        if isinstance(node, gast.Global):
            declared.update({name: node for name in node.names})
    if not declared:
        return
    for node in _own_scope(fdef):
        if isinstance(node, gast.Name) and node.id in declared and \
                not isinstance(node.ctx, gast.Load):
            raise src.error(
                f"writing the global `{node.id}` is not supported: the generated code "
                "and the primal would not change the module's value the same way", node,
                hint=f"return the new value and assign `{node.id}` outside the "
                     "differentiated function")
    _remove_globals(fdef)


def _own_scope(fdef):
    """Nodes of `fdef` outside nested defs, lambdas and classes (own scope)."""
    todo = list(fdef.body)
    while todo:
        node = todo.pop()
        yield node
        if not isinstance(node, (gast.FunctionDef, gast.Lambda, gast.ClassDef)):
            todo.extend(gast.iter_child_nodes(node))


def _remove_globals(node):
    for field in ("body", "orelse", "finalbody"):
        block = getattr(node, field, None)
        if isinstance(block, list):
            kept = [s for s in block if not isinstance(s, gast.Global)]
            for s in kept:
                if not isinstance(s, (gast.FunctionDef, gast.ClassDef)):
                    _remove_globals(s)
            setattr(node, field, kept or [gast.Pass()])
    for handler in getattr(node, "handlers", ()):
        _remove_globals(handler)


def sets_as_calls(src, fdef):
    """`{e for ...}` -> `set([e for ...])` and `{a, b}` -> `set((a, b))`, in place:
    the items are evaluated in the same order; `set` itself resolves to the builtin
    (refused if the user's function shadows it)."""
    for node in list(walk(fdef)):
        for field, value in gast.iter_fields(node):
            if isinstance(value, list):
                setattr(node, field, [_as_call(src, v) for v in value])
            elif isinstance(value, (gast.SetComp, gast.Set)):
                setattr(node, field, _as_call(src, value))


def _as_call(src, node):
    if not isinstance(node, (gast.SetComp, gast.Set)):
        return node
    if src.resolve(_load("set")) is not set:
        raise src.error("a set display where `set` is not the builtin is not supported",
                        node, hint="use a list")
    if isinstance(node, gast.SetComp):
        items = gast.ListComp(elt=node.elt, generators=node.generators)
    else:
        items = gast.Tuple(elts=node.elts, ctx=gast.Load())
    call = gast.Call(func=_load("set"), args=[_at(items, node)], keywords=[])
    return _at(call, node)
