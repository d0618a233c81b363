"""Stage 1b, desugar (data): a list or dict method that changes its receiver, called
inside a larger expression, is first given its own statement when that keeps the order
of evaluation, so container_methods.py can rewrite it:

    out = out + np.sum(stack.pop() * x)   ->  popped = stack.pop()
                                              out = out + np.sum(popped * x)

Hoisted only when nothing evaluated before the call (outside it) calls a function or
reads its receiver, and the call is not in a branch (`and`/`or`, `if`-expression,
comprehension, lambda); otherwise the statement stays and is refused as before.
"""
import gast

from ..ir.nodes import assign, load

_HOIST_FROM = {gast.Assign: "value", gast.Expr: "value", gast.Return: "value",
               gast.AugAssign: "value", gast.If: "test"}
_BRANCHES = (gast.BoolOp, gast.IfExp, gast.Lambda, gast.ListComp, gast.DictComp,
             gast.SetComp, gast.GeneratorExp)


def hoisted(s, methods, new_name):
    """[`t = xs.m(...)`, ...] statements to run before `s` (rewritten in place)."""
    before = []
    while True:
        call = _hoistable(s, methods)
        if call is None:
            return before
        temp = new_name(call.func.attr + "ped" if call.func.attr == "pop" else "item")
        made = gast.copy_location(assign(temp, call), s)
        made.user_text = _text(call)          # errors name the call, not the temporary
        before.append(made)
        _replace(s, call, load(temp))


def _text(node):
    import ast
    return ast.unparse(gast.gast_to_ast(node))


def _hoistable(s, methods):
    field = _HOIST_FROM.get(type(s))
    expr = getattr(s, field, None) if field else None
    if expr is None or _is_mutator(expr, methods) and _own_statement(s):
        return None                              # already a statement of its own
    events = list(_post_order(expr, False))
    if isinstance(s, gast.AugAssign):          # `xs[0] += xs.pop(0)` reads its target first
        events = [(n, False) for n in gast.walk(s.target)] + events
    for k, (node, in_branch) in enumerate(events):
        if _is_mutator(node, methods):
            inside = {id(n) for n in gast.walk(node)}
            earlier = [n for n, _ in events[:k] if id(n) not in inside]
            receiver = node.func.value.id
            clean = not any(isinstance(n, gast.Call) or isinstance(n, gast.Name) and
                            n.id == receiver for n in earlier)
            return node if clean and not in_branch else None
    return None


def _own_statement(s):
    """`xs.pop()` or `v = xs.pop()`: the forms container_methods.py rewrites."""
    return isinstance(s, gast.Expr) or isinstance(s, gast.Assign) and \
        len(s.targets) == 1 and isinstance(s.targets[0], gast.Name)


def _is_mutator(node, methods):
    return isinstance(node, gast.Call) and isinstance(node.func, gast.Attribute) and \
        node.func.attr in methods and isinstance(node.func.value, gast.Name)


def _post_order(expr, in_branch):
    """(node, whether it may not be evaluated), operands before the operation, left to
    right as Python evaluates them."""
    for k, child in enumerate(_children(expr)):
        yield from _post_order(child, in_branch or _is_branch(expr, k))
    yield expr, in_branch


def _children(node):
    if isinstance(node, gast.Call):
        return [node.func] + list(node.args) + [kw.value for kw in node.keywords]
    if isinstance(node, gast.IfExp):                     # test first, then a branch
        return [node.test, node.body, node.orelse]
    if isinstance(node, gast.Compare):
        return [node.left] + list(node.comparators)
    if isinstance(node, gast.Dict):                      # key, value, key, value, ...
        return [v for pair in zip(node.keys, node.values) for v in pair if v is not None]
    return [c for c in gast.iter_child_nodes(node) if isinstance(c, gast.expr)]


def _is_branch(node, k):
    if isinstance(node, (gast.BoolOp, gast.IfExp)):
        return k > 0
    if isinstance(node, gast.Compare):
        return k > 1
    return isinstance(node, _BRANCHES)


def _replace(tree, old, new):
    for node in gast.walk(tree):
        for field, value in gast.iter_fields(node):
            if value is old:
                setattr(node, field, new)
            elif isinstance(value, list) and any(v is old for v in value):
                setattr(node, field, [new if v is old else v for v in value])
