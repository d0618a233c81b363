"""Unsupported syntax raises TransformError before any transformation,
with file, line, column, the source line, a caret and a hint."""
import contextlib
import inspect

import numpy as np
import pytest

from transform import TransformError, adjoint_source, grad, value_and_grad, vjp

SIDE_EFFECTS = []


def uses_try(x):
    try:                           # (reads x, being differentiated; others run)
        SIDE_EFFECTS.append("ran")
        y = x * 2.0
    except ValueError:
        y = x
    return y


def uses_with(x):
    with contextlib.suppress(ValueError):    # (a `with` that may swallow an exception;
        return x * 2.0                        # others run, left by return too)


def uses_yield(x):
    yield x * 2.0


def uses_yield_from(x):
    yield from [x]


G = 1.0


def uses_global(x):
    global G                       # (a global only read is fine)
    G = x
    return x * 2.0


def make_nonlocal():
    y = 1.0

    def uses_nonlocal(x):
        nonlocal y
        y = x
        return x * y
    return uses_nonlocal


def uses_del(x):
    d = {"y": x * 2.0}
    del d["y"]                     # (`del name` is fine: it changes no value)
    return x


def uses_lambda(x):
    w = 2.0 * x     # (a closure is fine, unless what it reads is bound again after it)
    fs = {"double": lambda v: v * w}
    w = 3.0 * x
    return fs["double"](x)


def uses_class(x):
    class Box:
        pass
    return x * 2.0


def uses_import(x):
    import math
    return math.sin(x)


def uses_import_from(x):
    from math import sin
    return sin(x)


def uses_walrus(x):
    y = 1.0                        # (a walrus in a statement's own expression is fine)
    z = sum([(y := x * k) for k in range(3)])
    return z + y


def uses_match(x):
    match x:                       # (literal, None/True/False, capture, sequence run)
        case {"real": r}:
            return r
    return x * 2.0











async def uses_await(x):
    await x
    return x


CASES = [
    (uses_try, "try:", "try"),
    (uses_with, "contextlib.suppress", "with"),
    (uses_yield, "yield x", "yield"),
    (uses_yield_from, "yield from", "yield from"),
    (uses_global, "G = x", "global"),
    (make_nonlocal(), "nonlocal y", "nonlocal"),
    (uses_del, "del d", "del"),
    (uses_lambda, "lambda v", "lambda"),
    (uses_class, "class Box", "class"),
    (uses_import, "import math", "import"),
    (uses_import_from, "from math import", "import"),
    (uses_walrus, "y := x", ":="),
    (uses_match, "{\"real\": r}", "match"),
    (uses_await, "await x", "await"),
]


def _expected_location(fn, needle):
    lines, first = inspect.getsourcelines(fn)
    for k, text in enumerate(lines):
        if needle in text:
            return first + k, text.index(needle), text.rstrip("\n")
    raise AssertionError(f"{needle!r} not in source of {fn.__name__}")


def _transform_error(fn):
    with pytest.raises(TransformError) as info:
        adjoint_source(fn, wrt=0)
    return info.value


@pytest.mark.parametrize("case", CASES, ids=lambda c: c[0].__name__)
def test_unsupported_syntax_located(case):
    fn, needle, what = case
    exc = _transform_error(fn)
    line, col, source = _expected_location(fn, needle)
    assert exc.filename == __file__
    assert exc.line == line
    assert exc.col == col
    assert exc.source_line.rstrip() == source.rstrip()
    assert exc.hint
    assert what.lower() in exc.message.lower()


@pytest.mark.parametrize("case", CASES, ids=lambda c: c[0].__name__)
def test_unsupported_syntax_message_text(case):
    fn, needle, _ = case
    exc = _transform_error(fn)
    line, col, source = _expected_location(fn, needle)
    text = str(exc)
    lines = text.splitlines()
    assert lines[0].startswith(f"{__file__}:{line}:{col + 1}: ")
    assert "test_syntax.py" in text
    assert f":{line}:" in text
    assert "^" in text
    assert source.strip() in text
    caret = [ln for ln in lines if ln.strip() == "^"]
    assert len(caret) == 1
    source_shown = lines[lines.index(caret[0]) - 1]
    assert caret[0].index("^") - source_shown.index(source.strip()) == \
        col - source.index(source.strip())
    assert "Instead:" in text


def test_one_line_form():
    exc = _transform_error(uses_try)
    line, col, _ = _expected_location(uses_try, "try:")
    assert exc.one_line().startswith(f"{__file__}:{line}:{col + 1}:")
    assert "\n" not in exc.one_line()


@pytest.mark.parametrize("api", ["grad", "value_and_grad", "vjp"])
def test_error_raised_before_function_runs(api):
    SIDE_EFFECTS.clear()
    with pytest.raises(TransformError):
        if api == "grad":
            grad(uses_try)(1.0)
        elif api == "value_and_grad":
            value_and_grad(uses_try)(1.0)
        else:
            vjp(uses_try, 1.0)
    assert SIDE_EFFECTS == []


def unsupported_after_lots_of_code(x, W):
    h = np.tanh(W @ x)
    s = np.sum(h * h)
    for i in range(3):
        s = s + i * np.sum(x)
    if s > 0:
        s = s * 2.0
    try:
        s = s + 1.0
    except ValueError:
        pass
    return s


def test_error_reported_at_the_construct_not_earlier_code():
    exc = _transform_error(unsupported_after_lots_of_code)
    line, col, _ = _expected_location(unsupported_after_lots_of_code, 'try:')
    assert exc.line == line and exc.col == col


def try_in_dead_code(x):
    if False:
        try:
            return x * 2.0         # (try/finally runs; a return in the body does not)
        except ValueError:
            pass
    return x


def test_error_even_in_code_never_executed():
    exc = _transform_error(try_in_dead_code)
    line, col, _ = _expected_location(try_in_dead_code, "return x * 2.0")
    assert exc.line == line and exc.col == col


def first_of_two(x):
    del x[0]
    global G
    return 1.0


def test_first_unsupported_construct_reported():
    exc = _transform_error(first_of_two)
    line, _, _ = _expected_location(first_of_two, "del x[0]")
    assert exc.line == line


def test_transform_error_has_structured_fields():
    exc = _transform_error(uses_with)
    assert isinstance(exc, Exception)
    for attr in ("message", "filename", "line", "col", "source_line", "hint"):
        assert getattr(exc, attr) is not None


def varargs_fn(*xs):
    return xs[0] * 2.0


def kwargs_fn(x, **opts):
    return x * 2.0


def test_only_collected_arguments_cannot_be_differentiated():
    # (*args/**kwargs carry data along: tests/api/test_varargs.py)
    with pytest.raises(TransformError, match="collected by `xs`"):
        grad(varargs_fn)(1.0)


def test_kwargs_parameter_carries_data():
    assert grad(kwargs_fn)(1.5, unused=3) == 2.0


def test_function_without_source_raises_transform_error():
    ns = {}
    exec("def nosrc(x):\n    return x * 2.0\n", ns)
    with pytest.raises(TransformError) as info:
        grad(ns["nosrc"])(1.0)
    assert "source" in str(info.value)
    assert info.value.hint


def calls_i0(x):                  # (np.meshgrid and np.unwrap, used here before, have rules now)
    a = np.i0(x)
    return np.sum(a * a)


def test_call_without_rule_or_source_located():
    # (print has a rule now: it runs as it is, tests/calls/test_side_effects.py)
    exc = _transform_error(calls_i0)
    line, col, _ = _expected_location(calls_i0, "np.i0(x)")
    assert exc.line == line and exc.col == col
    assert "i0" in exc.message
