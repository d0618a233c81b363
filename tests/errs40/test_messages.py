"""errs40b: the errs40 table's messages that named no file or line, or the wrong entry,
now in the user's terms: each test pins the user's file:line (or the entry) in the
message, and the refusal stays a refusal."""
import re

import numpy as np
import pytest

import transform as tg
from tests.errs40 import programs as P
from tests.errs40.check import X, V

HERE = P.__file__
ROUTES = ["auto", "forward_over_reverse", "reverse_over_forward"]


def _at(fn, text):
    """The line number the message names after fn's file."""
    found = re.search(re.escape(HERE) + r":(\d+)\)", text)
    assert found, text
    return int(found.group(1))


def _return_line(fn):
    """fn's one return statement's line, else its def's (returns_none has none)."""
    import inspect
    lines, first = inspect.getsourcelines(fn)
    return first + next((k for k, t in enumerate(lines) if t.strip().startswith("return")), 0)


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize("name", ["vector_out", "returns_none", "returns_string",
                                  "returns_tuple"])
def test_hvp_and_hessian_name_the_return_of_a_non_scalar_function(name, route):
    fn = getattr(P, name)
    for call in (lambda: tg.hvp(fn, (X,), (V,), route=route),
                 lambda: tg.hessian(fn, route=route)(X)):
        with pytest.raises(TypeError, match="must return a scalar") as info:
            call()
        text = str(info.value)
        assert _at(fn, text) == _return_line(fn)
        assert "_tan(" not in text and "<thunkgrad" not in text, text


@pytest.mark.parametrize("name, what", [("returns_none", "None"), ("returns_string", "a str")])
def test_jvp_refuses_an_output_with_no_tangent(name, what):
    """jvp gave (None, None) for no return value and ('loss', None) for a string."""
    fn = getattr(P, name)
    for entry, call in (("jvp", lambda: tg.jvp(fn, (X,), (V,))),
                        ("jacfwd", lambda: tg.jacfwd(fn)(X))):      # jacfwd said "jvp:"
        with pytest.raises(TypeError, match=f"^{entry}: {name}\\(\\) .* returned {what}") \
                as info:
            call()
        assert _at(fn, str(info.value)) == _return_line(fn)


def test_jvp_of_a_container_output_is_still_a_value():
    """The refusal is of None or a string itself: a tuple output keeps its tangents."""
    out, out_dot = tg.jvp(P.returns_tuple, (X,), (V,))
    eps = 1e-6
    for k in range(2):
        want = (P.returns_tuple(X + eps * V)[k] - P.returns_tuple(X - eps * V)[k]) / (2 * eps)
        np.testing.assert_allclose(out_dot[k], want, rtol=1e-6)
        assert out[k] == P.returns_tuple(X)[k]


def test_grad_of_a_builtin_without_a_rule_says_what_to_do():
    """grad(len) said "'builtin_function_or_method' object has no attribute '__code__'"."""
    with pytest.raises(tg.TransformError, match="^len is a builtin with no Python source") \
            as info:
        tg.grad(len)(X)
    assert "__code__" not in str(info.value)
    assert "inside a Python function" in info.value.hint and "rrule" in info.value.hint


@pytest.mark.parametrize("entry", [
    lambda f: tg.grad(f)(X), lambda f: tg.vjp(f, X)[1](1.0), lambda f: tg.jvp(f, (X,), (V,)),
    lambda f: tg.jacrev(f)(X), lambda f: tg.hvp(f, (X,), (V,)),
    lambda f: tg.grad(f, lowering="plain")(X)])
def test_an_attribute_answered_by_getattr_is_refused_at_the_users_line(entry):
    """A class with __getattr__: a TypeError with no file or line (the rule's origin was
    `<string>`, the innermost frame with an origin); now a TransformError in the user's
    function, with advice naming the record's fields (reverse) or forward mode's; at the
    line reading the attribute (reverse mode named the object's construction line)."""
    with pytest.raises(tg.TransformError, match="`?.anything") as info:
        entry(P.getattr_class)
    assert info.value.filename == HERE
    assert info.value.line == _return_line(P.getattr_class)
    assert info.value.hint in ("read its fields (v) directly",
                               "read the fields it is computed from, or use vjp")


@pytest.mark.parametrize("module, name, route", [
    ("tests.noticed39.programs", "cached_reads_data", "reverse_over_forward"),
    ("tests.red39.programs_alias", "item_and_tolist", "auto")])
def test_dump_hvp_refuses_at_the_users_line_when_reverse_over_forward_refuses(
        module, name, route, capsys):
    """`thunkgrad dump --mode hvp` printed reverse over forward's refusal at a line of
    the tangent code (`<thunkgrad ... forward tangent>:3:14`), the generated line shown."""
    import importlib
    import inspect
    from transform import cli
    from transform.hessians import hvp_source
    fn = getattr(importlib.import_module(module), name)
    lines, first = inspect.getsourcelines(fn)
    with pytest.raises(tg.TransformError) as info:
        hvp_source(fn, route=route)
    assert info.value.filename == inspect.getsourcefile(fn)
    assert first <= info.value.line < first + len(lines)
    assert cli.main(["dump", f"{inspect.getsourcefile(fn)}:{name}", "--mode", "hvp",
                     "--route", route]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{inspect.getsourcefile(fn)}:{info.value.line}:"), err
    assert "<thunkgrad" not in err and "Traceback" not in err and "Instead:" in err


@pytest.mark.parametrize("name, what", [("returns_none", "None"), ("returns_string", "a str")])
def test_vjp_pullback_names_the_function_returning_nothing_to_differentiate(name, what):
    """The pullback said "the function returned None", no name, file or line."""
    fn = getattr(P, name)
    _, pullback = tg.vjp(fn, X)
    with pytest.raises(TypeError, match=f"^{name}\\(\\) .* returned {what}") as info:
        pullback(1.0)
    assert _at(fn, str(info.value)) == _return_line(fn)


@pytest.mark.parametrize("name", ["returns_none", "returns_string", "returns_int_const"])
def test_jacobians_name_the_function_returning_a_non_float(name):
    """jacrev (and jacfwd of an int) said 'needs float outputs: the output is NoneType'."""
    fn = getattr(P, name)
    calls = [tg.jacrev(fn)] + [tg.jacfwd(fn)] * (name == "returns_int_const")
    for call in calls:
        with pytest.raises(TypeError, match=f"needs float outputs: .* returned by {name}") \
                as info:
            call(X)
        assert _at(fn, str(info.value)) == _return_line(fn)


@pytest.mark.parametrize("name", ["setitem_arg", "iadd_arg", "imul_arg_slice", "fill_arg",
                                  "isub_slice_arg"])
def test_writes_into_an_argument_run_on_its_copy(name):
    """The accepted writes into an argument: the gradient of the function of the values
    it receives (differences of the function on copies), the caller's array unchanged."""
    from tests.fd import numerical_grad
    fn, x = getattr(P, name), X.copy()
    got = tg.grad(fn)(x)
    np.testing.assert_array_equal(x, X)
    want = numerical_grad(lambda v: fn(v.copy()), [X.copy()], 0)
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-8)


def test_out_into_an_argument_is_refused_as_on_a_private_array():
    """`np.sin(x, out=x)` said "writing into the argument `x` is not supported ...; it
    would change the caller's data", though other writes into an argument run on its
    copy: refused now for what `out=` does anywhere (the backward sweep cannot undo it)."""
    with pytest.raises(tg.TransformError, match=r":\d+:\d+: `out=` changes `x` in place, "
                       "which the backward sweep cannot undo") as info:
        tg.grad(P.out_arg)(X.copy())
    assert info.value.filename == HERE and "caller's data" not in str(info.value)
    assert "`x = np.add(a, b)` instead of `np.add(a, b, out=x)`" in info.value.hint
