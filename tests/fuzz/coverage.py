"""What the fuzzer's grammar covers: README's supported table, row by row, as productions.

    python -m tests.fuzz.coverage          # each row, its productions, and how often drawn

SUPPORTED and WORKS (tests/fuzz/coverage_rows.py) map each row of README.md's "Supported
subset" table marked "supported" or "works" (kept there as a list, so a README restructuring
does not silently drop it) to the productions that exercise it, and UNFUZZED names the
"works" rows no generator draws yet, with the reason;
NUMPY_FAMILIES comes from the product (runtime.rules.FAMILIES); PATTERNS are the issue-13
patterns. A production is drawn when a generator records it (Gen.use) or when the program's
source shows it (constructs(), by AST: `elif`, `@`, `np.einsum(...)`, `for ... in zip(...)`).
tests/test_fuzz_coverage.py fails when a row has no production or a production is never
drawn in a sample of every class. Add a README row here with the productions covering it.
"""
import ast
import builtins
import collections

import numpy as np

from .coverage_rows import PATTERNS, SUPPORTED, UNFUZZED, WORKS  # noqa: F401  (re-exported)


def numpy_families():
    """{family: (production,)} for every rule family with a NumPy function in it (the
    rows of README's NumPy coverage table, read from the product)."""
    import runtime
    from runtime.rules import FAMILIES
    present = set()
    for module in (np, np.linalg, np.random, np.fft):
        for name in dir(module):
            obj = getattr(module, name, None)
            rule = runtime.lookup(obj) if callable(obj) and not name.startswith("_") else None
            present.add(getattr(rule, "family", None))
            if isinstance(obj, np.ufunc) and obj.nin == 2:        # np.subtract.outer, ...
                present.add(getattr(runtime.lookup(obj.outer), "family", None))
    return {f"NumPy family {family}": (f"numpy:{family}",) for family in FAMILIES
            if family in present}


def scipy_families():
    """{row: (production,)} for every SciPy rule family (when SciPy imports), read from
    the product's rules: `scipy:<family>` is drawn by a call that family's rule handles."""
    try:
        import scipy.integrate, scipy.linalg, scipy.signal, scipy.special, scipy.stats  # noqa: E401,F401
    except ImportError:
        return {}
    from runtime.rules import SCIPY_FAMILIES
    return {f"SciPy family {family}": (f"scipy:{family}",)
            for families in SCIPY_FAMILIES.values() for family in families}


def required():
    """{row: productions} over SUPPORTED, WORKS, the NumPy and SciPy families, PATTERNS."""
    return {**SUPPORTED, **WORKS, **numpy_families(), **scipy_families(), **PATTERNS}


def drawn(cases):
    """production -> how many of `cases` draw it."""
    counts = collections.Counter()
    for case in cases:
        counts.update(set(case.productions) | constructs(case.source))
    return counts


def constructs(source):
    """The productions a program's source shows, read from its AST."""
    found = set()
    tree = ast.parse(source)
    lists = {t.id for n in ast.walk(tree) if isinstance(n, ast.Assign)
             and isinstance(n.value, (ast.List, ast.ListComp, ast.BinOp))
             and _is_list(n.value) for t in n.targets if isinstance(t, ast.Name)}
    for node in ast.walk(tree):
        found |= _node_constructs(node, lists)
    return found


_BINOPS = {ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.Div: "div", ast.Pow: "pow",
           ast.MatMult: "matmul_operator"}


def _node_constructs(node, lists):
    if isinstance(node, ast.BinOp):
        return {_BINOPS.get(type(node.op), "binary")}
    if isinstance(node, ast.UnaryOp):
        return {"unary_minus" if isinstance(node.op, ast.USub) else "bool_ops"}
    if isinstance(node, ast.BoolOp):
        return {"bool_ops"}
    if isinstance(node, ast.Compare):
        return {"comparison"} | ({"chained_comparison"} if len(node.ops) > 1 else set())
    if isinstance(node, ast.IfExp):
        return {"conditional_expression"}
    if isinstance(node, ast.If):
        return _if_constructs(node)
    if isinstance(node, (ast.For, ast.While)):
        return _loop_constructs(node)
    if isinstance(node, (ast.Break, ast.Continue)):
        return {type(node).__name__.lower()}
    if isinstance(node, ast.Assign):
        return _assign_constructs(node, lists)
    if isinstance(node, ast.AugAssign):
        return {"augmented_element" if isinstance(node.target, ast.Subscript)
                else "augmented_name"}
    if isinstance(node, ast.Call):
        return _call_constructs(node)
    if isinstance(node, ast.ListComp):
        return {"list_comprehension"}
    if isinstance(node, ast.GeneratorExp):
        return {"generator_expression"}
    if isinstance(node, ast.List) and isinstance(node.ctx, ast.Load):
        return {"list_literal"}
    if isinstance(node, ast.Dict):
        return {"dict_literal"}
    if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load):
        return _subscript_constructs(node, lists)
    if isinstance(node, ast.Attribute) and node.attr == "T":
        return {"transpose"}
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and \
            node.value.id not in ("np", "math", "dataclasses", "builtins"):
        return {"attribute_read"}
    if isinstance(node, ast.FunctionDef):
        return _def_constructs(node)
    return set()


def _if_constructs(node):
    found = {"if_else"} if node.orelse else set()
    if len(node.orelse) == 1 and isinstance(node.orelse[0], ast.If):
        found.add("elif")
    if any(isinstance(n, ast.Return) for n in ast.walk(node)):
        found.add("return_in_branch")
    return found


def _loop_constructs(node):
    found = {"while"} if isinstance(node, ast.While) else set()
    if any(isinstance(n, (ast.For, ast.While)) for b in node.body for n in ast.walk(b)):
        found.add("nested_loops")
    if isinstance(node, ast.For):
        it = node.iter
        name = _callee(it) if isinstance(it, ast.Call) else None
        found.add({"range": "for_range", "enumerate": "for_enumerate", "zip": "for_zip"}
                  .get(name, "for_other"))
        if isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute) and \
                it.func.attr == "items":
            found.add("for_dict_items")
        if isinstance(it, (ast.List, ast.ListComp)):
            found.add("for_list")
        if isinstance(it, ast.Tuple):
            found.add("for_tuple")
        if isinstance(it, (ast.Name, ast.Subscript)):
            found.add("for_array")
    return found


def _assign_constructs(node, lists):
    found = {"assign"}
    target, value = node.targets[0], node.value
    if isinstance(value, ast.Tuple):
        found.add("tuple_pack")
    if isinstance(target, ast.Tuple):
        found.add("tuple_unpack")
        if any(isinstance(t, ast.Tuple) for t in target.elts):
            found.add("nested_unpack")
    if isinstance(target, ast.Subscript):
        base = target.value.id if isinstance(target.value, ast.Name) else None
        found.add("list_element_write" if base in lists else "element_write")
        if isinstance(target.slice, ast.Compare):
            found.add("mask_write")
    return found


def _call_constructs(node):
    name = _callee(node)
    found = {"helper_call"} if isinstance(node.func, ast.Name) and \
        not hasattr(builtins, name) else set()
    if node.keywords and isinstance(node.func, ast.Name):
        found.add("keyword_args")
    found |= {"abs": {"abs_builtin"}, "float": {"float_call"}, "len": {"list_len_sum"},
              "dict": {"dict_call"}}.get(name, set())
    if isinstance(node.func, ast.Attribute):
        family = _numpy_family(node.func)
        if family and family.startswith("scipy_"):
            found.add(f"scipy:{family}")
        elif family:
            found |= {"numpy_call", f"numpy:{family}"}
        root = node.func.value
        if node.func.attr == "append":
            found.add("list_append")
        if isinstance(root, ast.Name) and root.id == "math":
            found.add("math_function")
    return found


def _subscript_constructs(node, lists):
    base = node.value.id if isinstance(node.value, ast.Name) else None
    if base in lists:
        return {"list_index"}
    return {"index"}


def _def_constructs(node):
    found = set()
    if any(isinstance(n, ast.FunctionDef) for b in node.body for n in ast.walk(b)):
        found.add("closure")
    if node.args.defaults or node.args.kw_defaults:
        found.add("default_args")
    return found


def _callee(call):
    func = call.func
    return func.id if isinstance(func, ast.Name) else \
        func.attr if isinstance(func, ast.Attribute) else None


def _is_list(value):
    if isinstance(value, ast.BinOp):
        return isinstance(value.op, ast.Mult) and isinstance(value.left, ast.List)
    return True


def _numpy_family(func):
    """The rule family of `np.x` / `np.linalg.x` / `np.random.x` / a method with a rule."""
    import runtime
    from runtime.rules.methods import METHODS
    parts = []
    while isinstance(func, ast.Attribute):
        parts.append(func.attr)
        func = func.value
    if isinstance(func, ast.Name) and func.id in ("np", "scipy"):
        obj = np if func.id == "np" else _scipy()
        for part in reversed(parts):
            obj = getattr(obj, part, None)
    else:
        obj = METHODS.get(parts[0]) if parts else None
    rule = runtime.lookup(obj) if callable(obj) else None
    return getattr(rule, "family", None) if rule is not None else None


def _scipy():
    import scipy
    return scipy


def sample(seeds_per_class=320):
    """Cases of every class, for the coverage count (320 each: at 160 the rarest
    productions were drawn once or not at all, so a new step that shifted the draws
    failed the count; at 320 each is drawn at least 3 times, generating costs ~6 s)."""
    from .classes import CLASSES, make_case
    return [make_case(cls, seed) for cls in CLASSES for seed in range(seeds_per_class)]


def main():
    counts = drawn(sample())
    for row, productions in required().items():
        print(row)
        print("    " + ", ".join(f"{p} {counts[p]}" for p in productions))


if __name__ == "__main__":
    main()
