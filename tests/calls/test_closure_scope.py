"""transform/lowering/closure_scope.py: which variables a closure reads may be bound
again while it can still be called (later in the function, or in a loop around it)."""
import gast
import pytest

from transform.lowering.closure_scope import rebound_later


def _closure_and_root(source):
    root = gast.parse(source).body[0]
    closure = next(n for n in gast.walk(root) if isinstance(n, gast.Lambda) or
                   isinstance(n, gast.FunctionDef) and n is not root)
    return root, closure


@pytest.mark.parametrize("source, names, expected", [
    ("def f(x):\n    w = x\n    g = lambda t: t * w\n    return g", {"w"}, []),
    ("def f(x):\n    g = lambda t: t * w\n    w = x\n    return g", {"w"}, ["w"]),
    ("def f(x):\n    w = 1\n    g = lambda t: t * w\n    w += 1", {"w"}, ["w"]),
    ("def f(x):\n    for i in range(3):\n        g = lambda t: t * i\n", {"i"}, ["i"]),
    ("def f(x):\n    fs = [lambda t: t * c for c in x]", {"c"}, ["c"]),
    ("def f(x):\n    while x:\n        w = x\n        g = lambda t: t * w\n", {"w"}, ["w"]),
    ("def f(x):\n    w = [x]\n    g = lambda t: t * w[0]\n    w[0] = 2", {"w"}, ["w"]),
    ("def f(x):\n    w = [x]\n    g = lambda t: t * w[0]\n    w.append(2)", {"w"}, ["w"]),
    ("def f(x):\n    w = x\n    g = lambda t: t * w\n    del w", {"w"}, ["w"]),
    ("def f(x):\n    w = x\n    def g(t):\n        w = 2\n        return t * w\n", {"w"}, []),
    ("def f(x):\n    w = x\n    w = make(lambda t: t * w)", {"w"}, ["w"]),
    ("def f(x):\n    w = x\n    g = lambda t, w=w: t * w\n    h = lambda: 0\n", {"w"}, []),
])
def test_rebound_later(source, names, expected):
    root, closure = _closure_and_root(source)
    assert rebound_later(root, closure, names) == expected


def test_a_closure_not_found_is_taken_as_rebound():
    root = gast.parse("def f(x):\n    return x").body[0]
    stray = gast.parse("lambda t: t").body[0].value
    stray.lineno, stray.col_offset = 99, 0
    assert rebound_later(root, stray, {"x"}) == ["x"]


@pytest.mark.parametrize("source, expected", [
    ("def f(x):\n    w = x\n    g = lambda t: t * w\n    v = w\n    v[0] = 7", ["w"]),
    ("def f(x):\n    w = x\n    v = w[1:]\n    g = lambda t: t * w\n    v[0] = 7", ["w"]),
    ("def f(x):\n    w = x\n    g = lambda t: t * w\n    ws = [w]\n    ws[0][0] = 7", ["w"]),
    ("def f(x):\n    w = x\n    g = lambda t: t * w\n    v = w\n    v = 7", []),
    ("def f(x):\n    w = x\n    g = lambda t: t * w\n    out = zeros(3)\n    out[0] = 7", []),
])
def test_writes_through_a_variable_sharing_the_object(source, expected):
    root, closure = _closure_and_root(source)
    assert rebound_later(root, closure, {"w"}) == expected


def test_a_write_into_the_object_a_captured_variable_was_bound_from():
    root, closure = _closure_and_root(
        "def f(x):\n    w = x\n    g = lambda t: t * w\n    out = x\n    out[0] = 7")
    assert rebound_later(root, closure, {"w"}) == ["w"]
