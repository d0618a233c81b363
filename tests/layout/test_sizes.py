"""Size limits of the product's code: no module over 400 lines, no function over 50."""
import ast

import pytest

from .imports import modules

MAX_MODULE_LINES = 400
MAX_FUNCTION_LINES = 50


def _functions(tree):
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield node


def function_lengths(source):
    """(qualified-ish name, lines from `def` to its last line) for every function."""
    tree = ast.parse(source)
    return [(f"{node.name}:{node.lineno}", node.end_lineno - node.lineno + 1)
            for node in _functions(tree)]


@pytest.mark.parametrize("name", sorted(modules()))
def test_module_size(name):
    lines = modules()[name].read_text().count("\n")
    assert lines <= MAX_MODULE_LINES, f"{name}: {lines} lines (split it)"


@pytest.mark.parametrize("name", sorted(modules()))
def test_function_sizes(name):
    long = [(f, n) for f, n in function_lengths(modules()[name].read_text())
            if n > MAX_FUNCTION_LINES]
    assert not long, f"{name}: functions over {MAX_FUNCTION_LINES} lines: {long}"


def test_the_function_measure_counts_lines():
    source = "def f():\n" + "    x = 1\n" * 60 + "\ndef g():\n    return 1\n"
    assert function_lengths(source) == [("f:1", 61), ("g:63", 2)]
