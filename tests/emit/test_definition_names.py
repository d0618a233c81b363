"""Generated file names name the definition (module, name, line and column): two lambdas
on one line, and two defs of one name, get two names in reverse and forward mode, and the
text registered under each is its own. Before session 34 they shared one (reverse mode's
names had no line, forward mode's the first line only): the second's text replaced the
first's, and reverse mode over the first (hvp) refused it as "changed on disk"."""
import importlib.util
import linecache

import numpy as np
import pytest

from tests.emit import lambdas_one_line as L
from tests.fd import assert_close, numerical_jvp
from transform import api, forward_api, grad, hvp, jvp

X, V = np.array([0.3, -0.5, 0.9]), np.array([1.0, 0.5, -0.25])
SIDE_BY_SIDE = [L.wave, L.bowl, L.cube, L.bend, L.first_branch, L.branch]


def _reverse(fn):
    return api.compiled(fn, ("x",), "loop", consumed=False)


def _forward(fn):
    return forward_api._compiled(fn, ("x",), None)


@pytest.mark.parametrize("compile_", [_reverse, _forward], ids=["reverse", "forward"])
def test_each_definition_has_its_own_file_and_text(compile_):
    rules = [compile_(fn) for fn in SIDE_BY_SIDE]
    names = [r.filename for r in rules]
    assert len(set(names)) == len(names), names
    for rule in rules:
        assert "".join(linecache.getlines(rule.filename)) == rule.text
    line = linecache.getlines(L.__file__)[3]                     # line 4: wave, bowl
    columns = [k for k in range(len(line)) if line.startswith("lambda", k)]
    assert f":4:{columns[0]} " in names[0] and f":4:{columns[1]} " in names[1], names


def test_hvp_over_a_lambda_whose_neighbour_was_compiled_since():
    jvp(L.wave, (X,), (V,))
    jvp(L.bowl, (X,), (V,))              # (its code was registered under wave's name)
    got = hvp(L.both, (X,), (V,))
    assert_close(got, numerical_jvp(grad(L.both), (X,), 0, V), rtol=1e-5, atol=1e-6)


def test_grad_and_hvp_of_all_side_by_side():
    grad(L.all_four)(X)
    got = hvp(L.all_four, (X,), (V,))
    assert_close(got, numerical_jvp(grad(L.all_four), (X,), 0, V), rtol=1e-5, atol=1e-6)


def _fresh_module():
    spec = importlib.util.spec_from_file_location(L.__name__, L.__file__)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("compile_", [_reverse, _forward], ids=["reverse", "forward"])
def test_the_same_definition_gives_the_same_name_and_text(compile_):
    """Another function object of the same definition (the module loaded again): a fresh
    compile, byte-identical source and file name."""
    again = _fresh_module()
    for name in ("wave", "bowl", "all_four"):
        first, second = compile_(getattr(L, name)), compile_(getattr(again, name))
        assert first is not second
        assert (first.filename, first.source) == (second.filename, second.source)


def _cell(filename, text):
    """Run `text` as a notebook runs a cell: its own file name, its lines in linecache,
    its functions in module `__main__`-like `cells` (no file of its own)."""
    linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
    namespace = {"__name__": "cells", "np": np}
    exec(compile(text, filename, "exec"), namespace)
    return namespace["f"]


def test_cells_of_one_module_with_a_def_on_the_same_line():
    first = _cell("<cell-1>", "def f(x):\n    return np.sum(np.sin(x) * x)\n")
    second = _cell("<cell-2>", "def f(x):\n    return np.sum(np.cos(x) * x)\n")
    names = {_reverse(first).filename, _reverse(second).filename}
    assert len(names) == 2 and all("<cell-" in n for n in names), names
    for fn in (first, second, first):
        assert_close(hvp(fn, (X,), (V,)), numerical_jvp(grad(fn), (X,), 0, V),
                     rtol=1e-5, atol=1e-6)
