"""Greedy minimisation of a failing fuzz Program (what Hypothesis' shrinker leaves).

    python -m tests.fuzz.minimise failing_program.txt

where the file holds the `Program(...)` repr Hypothesis prints as the failing test case.
It deletes statements, replaces if/for statements by their bodies, drops helpers and
replaces expressions by their sub-expressions while the same kind of failure persists,
then prints the smallest program and its failure.
"""
import ast
import sys

from .grammar import ARRAY, INDEX, SCALAR, Helper, Program  # noqa: F401  (for eval)
from .runner import check, well_conditioned


def failure(program):
    """(exception type name, first message line) of runner.check on `program`, or None."""
    args = program.inputs()
    try:
        if not well_conditioned(program, args):
            return None
    except Exception:  # noqa: BLE001  (an edit made the program itself invalid)
        return None
    try:
        check(program, args)
    except Exception as exc:  # noqa: BLE001  (any failure is interesting)
        return type(exc).__name__, str(exc).splitlines()[0] if str(exc) else ""
    return None


def minimise(program, same=None):
    """The smallest variant of `program` whose failure has the same exception type."""
    target = failure(program)
    if target is None:
        raise ValueError("the program does not fail")
    same = same or (lambda got: got is not None and got[0] == target[0])
    improved = True
    while improved:
        improved = False
        for candidate in variants(program):
            if same(failure(candidate)):
                program, improved = candidate, True
                break
    return program


def variants(program):
    """Smaller programs: one edit each, biggest edits first."""
    for k in range(len(program.helpers)):
        helpers = program.helpers[:k] + program.helpers[k + 1:]
        yield _with(program, helpers=helpers)
    for k, helper in enumerate(program.helpers):
        for body in _smaller_blocks(helper.body):
            helpers = list(program.helpers)
            helpers[k] = Helper(helper.name, helper.params, helper.result, body)
            yield _with(program, helpers=helpers)
    for body in _smaller_blocks(program.body):
        yield _with(program, body=body)


def _with(program, **changes):
    fields = dict(helpers=program.helpers, body=program.body, params=program.params,
                  length=program.length, output=program.output, seed=program.seed)
    fields.update(changes)
    return Program(**fields)


def _smaller_blocks(block):
    for k, stmt in enumerate(block):
        before, after = block[:k], block[k + 1:]
        if stmt[0] != "return" or k < len(block) - 1:
            yield before + after
        for replacement in _smaller_statements(stmt):
            yield before + replacement + after


def _smaller_statements(stmt):
    kind = stmt[0]
    if kind == "if":
        yield list(stmt[2])
        if stmt[3]:
            yield list(stmt[3])
            yield [("if", stmt[1], stmt[2], [])]
        for body in _smaller_blocks(stmt[2]):
            yield [("if", stmt[1], body, stmt[3])]
        for body in _smaller_blocks(stmt[3]):
            yield [("if", stmt[1], stmt[2], body)]
    elif kind == "for":
        for body in _smaller_blocks(stmt[3]):
            yield [("for", stmt[1], stmt[2], body)]
        if stmt[2].startswith("range(") and stmt[2] != "range(1)":
            yield [("for", stmt[1], "range(1)", stmt[3])]
    elif kind == "while":
        for body in _smaller_blocks(stmt[3]):
            yield [("while", stmt[1], stmt[2], body)]
        if stmt[2] != 1:
            yield [("while", stmt[1], 1, stmt[3])]
    elif kind == "collect":
        for expr in _smaller_expressions(stmt[4]):
            yield [stmt[:4] + (expr,) + stmt[5:]]
    elif kind in ("assign", "augassign", "return"):
        for expr in _smaller_expressions(stmt[-1]):
            yield [stmt[:-1] + (expr,)]


def _smaller_expressions(text):
    tree = ast.parse(text, mode="eval").body
    children = [n for n in ast.iter_child_nodes(tree) if isinstance(n, ast.expr)]
    if isinstance(tree, ast.Call):
        children = list(tree.args)
    for child in children:
        yield ast.unparse(child)
    for child in children:
        for smaller in _smaller_expressions(ast.unparse(child)):
            yield ast.unparse(_swap(tree, child, ast.parse(smaller, mode="eval").body))


def _swap(tree, old, new):
    for field, value in ast.iter_fields(tree):
        if value is old:
            copy = _shallow(tree)
            setattr(copy, field, new)
            return copy
        if isinstance(value, list) and any(v is old for v in value):
            copy = _shallow(tree)
            setattr(copy, field, [new if v is old else v for v in value])
            return copy
    return tree


def _shallow(node):
    copy = type(node)(**{f: getattr(node, f) for f in node._fields})
    return ast.copy_location(copy, node)


def main(path):
    program = eval(open(path).read())  # noqa: S307  (a repr printed by Hypothesis)
    small = minimise(program)
    print(small.source())
    print("inputs:", small.inputs())
    print("failure:", failure(small))


if __name__ == "__main__":
    main(sys.argv[1])
