"""Unsupported constructs inside control flow (loops, branches) raise
TransformError with file, line, column and a caret, before any transformation."""
import contextlib
import inspect

import numpy as np
import pytest

from tests.gradcheck import POLICIES

from transform import TransformError, adjoint_source, grad

G = 0.0


def try_in_loop(x, n):
    s = 0.0
    for i in range(n):
        try:
            s = s + x
        except ValueError:
            pass
    return s


def with_in_branch(x):
    if x > 0:
        with contextlib.suppress(OSError):   # (may swallow an exception: refused)
            return x * 2.0
    return x


def yield_in_while(x):
    while x < 10.0:
        x = x * 2.0
        yield x


async def async_for_in_loop(x, xs):
    for i in range(3):
        async for v in xs:
            x = x * v
    return x


async def async_with_in_branch(x, cm):
    if x > 0:
        async with cm:
            x = x * 2.0
    return x


async def await_in_loop(x, n):
    for i in range(n):
        x = await x
    return x


def global_in_loop(x, n):
    global G
    for i in range(n):
        G = x * i
    return x


def global_write_nested(x, n):
    for i in range(n):
        if i > 1:
            global G
            G = x
    return x


def make_nonlocal_in_loop():
    acc = 0.0

    def nonlocal_in_loop(x, n):
        nonlocal acc
        for i in range(n):
            acc = acc + x
        return x * 2.0
    return nonlocal_in_loop


def del_in_loop(x, n):
    for i in range(n):
        y = {"a": x * i}
        del y["a"]                  # (`del y` is fine: it changes no value)
    return x


def match_in_loop(x, n):
    s = 0.0
    for i in range(n):
        match (i, i):              # (sequence patterns of literals run; a star is refused)
            case (0, *rest):
                s = s + x
            case _:
                s = s * x
    return s


def lambda_in_loop(x, n):
    s = 0.0
    for i in range(n):
        fs = [lambda v: v * i]      # (a lambda called by its name is fine)
        s = s + fs[0](x)
    return s


def lambda_in_comprehension(x, n):
    return sum((lambda v: v * 2.0)(x * i) for i in range(n))


def try_in_nested_loops(x, n):
    s = x
    for i in range(n):
        for j in range(n):
            while s < 1.0:
                try:               # (reads s, being differentiated; try/finally runs)
                    s = s * 2.0
                except ValueError:
                    pass
    return s


def walrus_in_while(x):
    while [y := x * 2.0 for _ in range(1)][0] < 10.0:   # (a plain walrus test runs)
        x = y
    return x


def import_in_branch(x):
    if x > 0:
        import math
        x = math.sin(x)
    return x


def class_in_loop(x, n):
    for i in range(n):
        class Local:
            pass
    return x


def walrus_in_comprehension(x, n):
    return sum((z := x * i) for i in range(n))


CASES = [
    (try_in_loop, "try:"),
    (with_in_branch, "contextlib.suppress"),
    (yield_in_while, "yield x"),
    (async_for_in_loop, "async for"),
    (async_with_in_branch, "async with"),
    (await_in_loop, "await x"),
    (global_in_loop, "G = x * i"),
    (global_write_nested, "G = x"),
    (make_nonlocal_in_loop(), "nonlocal acc"),
    (del_in_loop, "del y["),
    (match_in_loop, "*rest"),
    (lambda_in_loop, "lambda v"),
    (lambda_in_comprehension, "lambda v"),
    (try_in_nested_loops, "try:"),
    (walrus_in_while, "y := x"),
    (import_in_branch, "import math"),
    (class_in_loop, "class Local"),
    (walrus_in_comprehension, "z := x"),
]


def _expected(fn, needle):
    lines, first = inspect.getsourcelines(fn)
    for k, text in enumerate(lines):
        if needle in text:
            return first + k, text.index(needle), text.rstrip("\n")
    raise AssertionError(needle)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c[0].__name__)
def test_located_transform_error(case):
    fn, needle = case
    with pytest.raises(TransformError) as info:
        adjoint_source(fn, wrt=0)
    exc = info.value
    line, col, source = _expected(fn, needle)
    assert exc.filename == __file__
    assert exc.line == line
    assert exc.col == col
    text = str(exc)
    assert text.startswith(f"{__file__}:{line}:{col + 1}: ")
    assert source.strip() in text
    lines = text.splitlines()
    caret = next(ln for ln in lines if ln.strip() == "^")
    shown = lines[lines.index(caret) - 1]
    assert caret.index("^") - shown.index(source.strip()) == col - source.index(source.strip())
    assert "Instead:" in text


@pytest.mark.parametrize("case", CASES, ids=lambda c: c[0].__name__)
@pytest.mark.parametrize("policy", POLICIES)
def test_raised_under_every_policy_through_grad(case, policy):
    fn, _ = case
    nparams = len(inspect.signature(fn).parameters)
    args = (0.5,) + (0,) * (nparams - 1)
    with pytest.raises(TransformError):
        grad(fn, policy=policy)(*args)


def unpack_differentiated_rows(P):
    s = 0.0
    for a, b in P:
        s = s + a * a * b
    return s


def test_unpacking_differentiated_rows_compiles():
    """Once an error without a location; now supported: `for a, b in P` with P active."""
    P = np.array([[1.0, 2.0], [3.0, -1.0]])
    np.testing.assert_allclose(grad(unpack_differentiated_rows)(P), [[4.0, 1.0], [-6.0, 9.0]])
