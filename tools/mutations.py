"""The mutation operators of tools/mutate.py: every small change to a Python file that a
test suite should notice, as (line, description, mutated source) triples.

    x + y  ->  x - y          a < b  ->  a <= b        not c  ->  c
    2.0    ->  3.0            True   ->  False         reversed(s)  ->  s
    s[::-1] -> s              f(x); x += 1; raise E; assert c   ->  pass
    "g * (1 - ans ** 2)"  ->  "g * (1 + ans ** 2)"      (inside rule templates too)

Mutants are made on the AST and unparsed, so a mutated file has no comments and its own
formatting; line numbers are those of the original file.
"""
import ast
import copy

BINOPS = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Div, ast.Div: ast.Mult,
          ast.Pow: ast.Mult, ast.FloorDiv: ast.Div, ast.Mod: ast.FloorDiv,
          ast.MatMult: ast.Mult, ast.BitAnd: ast.BitOr, ast.BitOr: ast.BitAnd}
COMPARES = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt,
            ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.Is: ast.IsNot, ast.IsNot: ast.Is,
            ast.In: ast.NotIn, ast.NotIn: ast.In}


def expression_mutants(tree):
    """Yield (node position, description, mutated copy of tree) for expression changes."""
    nodes = list(ast.walk(tree))
    for k, node in enumerate(nodes):
        for description, change in _changes(node):
            mutant = copy.deepcopy(tree)
            target = list(ast.walk(mutant))[k]
            change(target)
            yield getattr(node, "lineno", 0), description, mutant


def _changes(node):
    """(description, function changing a copy of node in place) for one node."""
    if isinstance(node, ast.BinOp) and type(node.op) in BINOPS:
        new = BINOPS[type(node.op)]
        yield f"{_op(node.op)} -> {_op(new())}", lambda n, new=new: setattr(n, "op", new())
    if isinstance(node, ast.AugAssign) and type(node.op) in BINOPS:
        new = BINOPS[type(node.op)]
        yield f"{_op(node.op)}= -> {_op(new())}=", lambda n, new=new: setattr(n, "op", new())
    if isinstance(node, ast.Compare):
        for i, op in enumerate(node.ops):
            if type(op) in COMPARES:
                new = COMPARES[type(op)]
                yield (f"{_op(op)} -> {_op(new())}",
                       lambda n, i=i, new=new: n.ops.__setitem__(i, new()))
    if isinstance(node, ast.BoolOp):
        new = ast.Or if isinstance(node.op, ast.And) else ast.And
        yield f"{_op(node.op)} -> {_op(new())}", lambda n, new=new: setattr(n, "op", new())
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.Not)):
        yield f"drop unary {_op(node.op)}", _drop_unary
    yield from _constant_changes(node)
    yield from _call_changes(node)
    if isinstance(node, ast.Subscript) and _is_reversing_slice(node.slice):
        yield "s[::-1] -> s", _drop_subscript


def _constant_changes(node):
    if not isinstance(node, ast.Constant):
        return
    value = node.value
    if isinstance(value, bool):
        yield f"{value} -> {not value}", lambda n: setattr(n, "value", not n.value)
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        yield f"{value!r} -> {value + 1!r}", lambda n: setattr(n, "value", n.value + 1)


def _call_changes(node):
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
            node.func.id == "reversed" and len(node.args) == 1:
        yield "reversed(s) -> s", _unwrap_call


def _is_reversing_slice(s):
    return isinstance(s, ast.Slice) and s.lower is None and s.upper is None and \
        isinstance(s.step, ast.UnaryOp) and isinstance(s.step.op, ast.USub) and \
        isinstance(s.step.operand, ast.Constant) and s.step.operand.value == 1


def _drop_unary(n):
    _become(n, n.operand)


def _unwrap_call(n):
    _become(n, n.args[0])


def _drop_subscript(n):
    _become(n, n.value)


def _become(node, other):
    """Turn `node` into a copy of `other` in place (its parent keeps pointing at it)."""
    other = copy.deepcopy(other)
    node.__class__ = other.__class__
    node.__dict__.clear()
    node.__dict__.update(other.__dict__)


def statement_mutants(tree):
    """Yield (line, description, mutant) replacing one call statement, augmented
    assignment, `raise` or `assert` with `pass` (the write, side effect or check never
    happens)."""
    nodes = list(ast.walk(tree))
    kinds = (ast.Expr, ast.AugAssign, ast.Raise, ast.Assert)
    for k, node in enumerate(nodes):
        if isinstance(node, kinds) and not _is_docstring(node):
            mutant = copy.deepcopy(tree)
            target = list(ast.walk(mutant))[k]
            _become(target, ast.Pass())
            dropped = ast.unparse(node).splitlines()[0]      # names it in the key
            yield node.lineno, f"statement -> pass ({dropped})", mutant


def _is_docstring(node):
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and \
        isinstance(node.value.value, str)


def template_mutants(tree):
    """Yield (line, description, mutant) changing the code inside string constants that
    parse as expressions with an operator or a call (rule templates: "g * (1 - ans ** 2)")."""
    nodes = list(ast.walk(tree))
    for k, node in enumerate(nodes):
        inner = _template(node)
        if inner is None:
            continue
        for _, description, changed in expression_mutants(inner):
            text = ast.unparse(changed)
            if text == ast.unparse(inner):
                continue
            mutant = copy.deepcopy(tree)
            list(ast.walk(mutant))[k].value = text
            yield node.lineno, f'"{node.value}": {description} -> "{text}"', mutant


def _template(node):
    if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
        return None
    try:
        inner = ast.parse(node.value, mode="eval")
    except SyntaxError:
        return None
    interesting = (ast.BinOp, ast.Call, ast.UnaryOp, ast.Compare, ast.Subscript)
    return inner if any(isinstance(n, interesting) for n in ast.walk(inner)) else None


def mutants(source, kinds=("expression", "statement", "template")):
    """Every (line, description, mutated source) of `source`, in a stable order."""
    tree = ast.parse(source)
    original = ast.unparse(tree)
    makers = {"expression": expression_mutants, "statement": statement_mutants,
              "template": template_mutants}
    seen = set()
    for kind in kinds:
        for line, description, mutant in makers[kind](tree):
            text = ast.unparse(mutant)
            if text != original and text not in seen:
                seen.add(text)
                yield line, description, text


def _op(op):
    names = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.Pow: "**",
             ast.FloorDiv: "//", ast.Mod: "%", ast.MatMult: "@", ast.BitAnd: "&",
             ast.BitOr: "|", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=",
             ast.Eq: "==", ast.NotEq: "!=", ast.Is: "is", ast.IsNot: "is not",
             ast.In: "in", ast.NotIn: "not in", ast.And: "and", ast.Or: "or",
             ast.USub: "-", ast.Not: "not "}
    return names.get(type(op), type(op).__name__)
