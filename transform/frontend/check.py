"""Stage 2, check: reject unsupported syntax before any transformation.

Every construct the compiler does not handle gets a TransformError naming the
file, line and column, with a sentence on what to write instead.
"""
import ast

import gast

from ..ir.nodes import walk_in_order
from ..alias.callees import check_callees
from ..alias.check import check_aliasing

# node type -> (what it is, what to do instead)
UNSUPPORTED = {
    gast.AsyncWith: ("`async with`", "differentiate synchronous code only"),
    gast.AsyncFor: ("`async for`", "differentiate synchronous code only"),
    gast.AsyncFunctionDef: ("`async def`", "differentiate synchronous code only"),
    gast.Await: ("`await`", "differentiate synchronous code only"),
    gast.Yield: ("`yield` (generators)", "build and return a list instead"),
    gast.YieldFrom: ("`yield from`", "build and return a list instead"),
    gast.Global: ("`global` declarations in a nested function", "define the helper at "
                  "module level"),
    gast.Nonlocal: ("`nonlocal` declarations", "pass the value in as an argument and return "
                    "the new value"),
    gast.Delete: ("`del` of an item or attribute", "build a new container without it"),
    gast.With: ("`with` blocks left by return, break or continue",
                "set a flag inside the block and act on it after the block"),
    gast.ClassDef: ("class definitions inside the function", "define the class at module level"),
    gast.Import: ("`import` statements inside the function", "import at module level"),
    gast.ImportFrom: ("`import` statements inside the function", "import at module level"),
    gast.NamedExpr: ("assignment expressions (`:=`) inside another `:=`, a comprehension, "
                     "a lambda or an assignment target, or beside a `*`/`**` argument",
                     "assign on a separate line"),
}
if hasattr(gast, "Match"):
    UNSUPPORTED[gast.Match] = ("`match` statements", "use if/elif/else")


def check_function(src):
    """Raise TransformError for the first unsupported construct in `src`."""
    fdef = src.node         # (its *args/**kwargs carry data: public/parameters refuses a
    consumed = set()        # wrt naming them); generator expressions a call consumes
    for stmt in fdef.body:
        for node in walk_in_order(stmt):
            if type(node) not in _CHECKED:
                continue
            _check_node(src, node)
            if isinstance(node, gast.Call):
                consumed.update(id(a) for a in node.args if isinstance(a, gast.GeneratorExp))
            elif _unpacked(node):           # `a, b = (f(k) for k in ...)` runs it now
                consumed.add(id(node.value))
            elif isinstance(node, gast.GeneratorExp) and id(node) not in consumed:
                raise src.error("a generator expression kept for later is not supported: "
                                "the generated code evaluates it where it is written, "
                                "while Python runs it when it is consumed", node,
                                hint="use a list comprehension `[...]`, or pass the "
                                     "generator straight to the call that consumes it")
    check_aliasing(src)
    check_callees(src)


def _unpacked(node):
    """An assignment unpacking a generator expression into names (Python consumes it
    before binding any of them: a list comprehension's meaning)."""
    return isinstance(node, gast.Assign) and isinstance(node.value, gast.GeneratorExp) \
        and all(isinstance(t, (gast.Tuple, gast.List)) for t in node.targets)


# the node types _check_node and the generator check look at (the others pass)
_CHECKED = frozenset(UNSUPPORTED) | {gast.FunctionDef, gast.ListComp, gast.GeneratorExp,
                                     gast.DictComp,
                                     gast.For, gast.While, gast.AugAssign, gast.Assign,
                                     gast.Call}


def _check_node(src, node):
    kind = type(node)
    if kind in UNSUPPORTED:
        what, hint = UNSUPPORTED[kind]
        raise src.error(f"{what} are not supported", node, hint=hint)
    if isinstance(node, gast.FunctionDef) and (node.decorator_list or node.args.vararg
                                                or node.args.kwarg or node.args.kwonlyargs):
        raise src.error("nested functions with decorators, *args, **kwargs or keyword-only "
                        "parameters are not supported", node,
                        hint="define the helper at module level (a nested def with "
                             "keyword-only parameters works when it is only called by "
                             "its name, never passed as a value)")
    if isinstance(node, (gast.ListComp, gast.GeneratorExp, gast.DictComp)) and \
            any(gen.is_async for gen in node.generators):
        raise src.error("asynchronous comprehensions are not supported", node,
                        hint="differentiate synchronous code only")
    if isinstance(node, (gast.ListComp, gast.GeneratorExp, gast.DictComp)):
        for gen in node.generators:     # `[f(r) for a, *r in rows]` lost r's gradient
            _check_target(src, gen.target)
    if isinstance(node, gast.AugAssign) and not isinstance(node.target, (gast.Name,
                                                                          gast.Subscript)):
        raise src.error("augmented assignment to this target is not supported", node,
                        hint=_augmented_hint(node))
    if isinstance(node, gast.Assign):
        for target in node.targets:
            _check_target(src, target)
    if isinstance(node, gast.For):
        _check_target(src, node.target)


def _augmented_hint(node):
    """`s.v += e` -> `s.v = s.v + e` (a new array: a name sharing the old one keeps its
    values, as `+=` would not leave them), else a local name."""
    if not isinstance(node.target, gast.Attribute):
        return "assign to a local name"
    target = ast.unparse(gast.gast_to_ast(node.target))
    op = ast.unparse(ast.BinOp(ast.Name("a"), gast.gast_to_ast(node.op), ast.Name("b")))[2:-2]
    return (f"assign a new value: `{target} = {target} {op} ...` (a new array: unlike "
            f"`{op}=`, it leaves any other name sharing the old one as it was)")


def _check_target(src, target):
    if isinstance(target, gast.Name):
        return
    if isinstance(target, (gast.Tuple, gast.List)):
        for elt in target.elts:
            _check_target(src, elt)
        return
    if isinstance(target, gast.Subscript):
        return
    if isinstance(target, gast.Starred):
        raise src.error("a starred target of a `for` loop, a comprehension or a chained "
                        "assignment (`x = a, *b = v`) is not supported", target,
                        hint="bind the value to one name, then unpack it in a statement of "
                             "its own: `for row in rows:` then `first, *rest = row`")
    if isinstance(target, gast.Attribute):
        raise src.error("assigning to an attribute is not supported here", target,
                        hint=_attribute_hint(src, target))
    raise src.error("this assignment target is not supported", target,
                    hint="assign to a local name")


def _attribute_hint(src, target):
    """What to write instead of an attribute write the desugar stage left (session 30:
    frontend/attribute_writes.py rewrites those on objects only the function sees)."""
    first = src.node.args.args[0].id if src.node.args.args else None
    owner = target.value.id if isinstance(target.value, gast.Name) else None
    if owner is not None and owner == first and src.name.startswith("__i"):
        return (f"return a new object from {src.name}() (`return type({owner})(...)`), "
                "or define only the plain operator (`__add__`): `a += b` then rebinds `a`")
    if owner is not None and owner == first:
        return ("call this method in a statement of its own, `h = r.step(x)` or "
                "`r.step(x)` (not inside an expression: `np.sum(r.step(x))`, `return "
                "r.step(x)`), on an object the differentiated function makes itself "
                "(`r = RNN(W, U)`) and no other name, container, helper or closure sees; "
                "or return the new value and set it in the caller")
    return ("write attributes only of an object the function makes itself and no other "
            "name, container, helper or closure sees (`b = Box(); b.state = v`), or keep "
            "the value in a local variable")
