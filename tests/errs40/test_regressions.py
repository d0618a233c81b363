"""What the errs40 red team found, one test each (tests/errs40/programs.py holds the
programs): before the fixes each gave a silent value, an internal error, or a message
naming generated code."""
import numpy as np
import pytest

import transform as tg
from transform import TransformError
from transform.testing import check_grads
from tests.errs40 import programs as P
from tests.errs40.check import X, V, fd_grad, fd_hess

HERE = P.__file__


def _line_of(fn, needle):
    import inspect
    lines, first = inspect.getsourcelines(fn)
    return first + next(k for k, t in enumerate(lines) if needle in t)


@pytest.mark.parametrize("entry", [
    lambda f: tg.grad(f)(X), lambda f: tg.value_and_grad(f)(X), lambda f: tg.vjp(f, X),
    lambda f: tg.jvp(f, (X,), (V,)), lambda f: tg.jacfwd(f)(X), lambda f: tg.jacrev(f)(X),
    lambda f: tg.hessian(f)(X), lambda f: tg.hvp(f, (X,), (V,)),
    lambda f: tg.grad(tg.differentiable(f))(X), lambda f: tg.grad(f, lowering="plain")(X),
    lambda f: check_grads(f, X), lambda f: tg.adjoint_source(f)])
def test_async_def_refused_at_its_def(entry):
    """async def: every entry differentiated the coroutine's body as if synchronous."""
    with pytest.raises(TransformError, match="async def") as info:
        entry(P.async_fn)
    assert info.value.filename == HERE
    assert info.value.line == _line_of(P.async_fn, "async def")
    assert "drop `async`" in info.value.hint


@pytest.mark.parametrize("route", ["auto", "forward_over_reverse", "reverse_over_forward"])
@pytest.mark.parametrize("fn", [P.returns_none, P.constant_vector])
def test_hvp_of_a_constant_non_scalar_output_is_refused(fn, route):
    """forward over reverse dropped the seed (whose check refuses a non-scalar output)
    as dead code when the output does not depend on x: H v came back as zeros."""
    with pytest.raises(TypeError, match="must return a scalar"):
        tg.hvp(fn, (X,), (V,), route=route)
    with pytest.raises(TypeError, match="must return a scalar"):
        tg.hessian(fn, route=route)(X)


def test_vjp_of_varargs_refused_not_an_empty_tuple():
    """vjp(f, x) with `def f(*xs)`: wrt defaulted to () and the pullback gave ()."""
    with pytest.raises(TransformError, match="collected by `xs`") as info:
        tg.vjp(P.varargs, X)
    assert info.value.filename == HERE
    assert info.value.line == _line_of(P.varargs, "def varargs")


def test_pullback_refuses_a_number_for_none_or_tuple_outputs():
    with pytest.raises(TypeError, match="returned None"):
        tg.vjp(P.returns_none, X)[1](1.0)
    with pytest.raises(TypeError, match="tuple of 2 cotangents"):
        tg.vjp(P.returns_tuple, X)[1](1.0)
    g = tg.vjp(P.returns_tuple, X)[1]((1.0, None))[0]
    np.testing.assert_allclose(g, fd_grad(lambda x: P.returns_tuple(x)[0], X), rtol=1e-6)


@pytest.mark.parametrize("fn", [P.returns_none, P.returns_string])
def test_check_grads_says_what_the_function_returned(fn):
    with pytest.raises(TypeError, match=r"check_grads\(.*\) at .*programs.py.*returned"):
        check_grads(fn, X)


@pytest.mark.parametrize("fn", [P.fsum_of_array, P.prod_of_array])
def test_math_fsum_and_prod_of_an_array(fn):
    """math.fsum's (and math.prod's) cotangent was a list: list arithmetic on it
    crashed in the backward sweep (`[g, g, g] * 2`)."""
    want = fd_grad(fn, X)
    np.testing.assert_allclose(tg.grad(fn)(X), want, rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(tg.jvp(fn, (X,), (V,))[1], want @ V, rtol=1e-6)
    check_grads(fn, X)


def test_math_prod_of_an_array_of_rows():
    np.testing.assert_allclose(tg.grad(P.prod_of_rows)(X), fd_grad(P.prod_of_rows, X),
                               rtol=1e-6)


@pytest.mark.parametrize("route", ["auto", "forward_over_reverse", "reverse_over_forward"])
def test_astype_int_has_a_zero_tangent(route):
    """`x.astype(int) * x`: forward mode cast the tangent (jvp=LINEAR), so the integer
    part got the slope of x: jvp, jacfwd, hvp and hessian silently wrong."""
    f = P.astype_int
    want = fd_grad(f, X)
    np.testing.assert_allclose(tg.jvp(f, (X,), (V,))[1], want @ V, rtol=1e-6)
    np.testing.assert_allclose(tg.jacfwd(f)(X), want, rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(tg.hvp(f, (X,), (V,), route=route), fd_hess(f, X) @ V,
                               atol=1e-4)


@pytest.mark.parametrize("call, name", [
    (lambda: tg.jvp(P.two_args, (X,), (V,)), "two_args()"),
    (lambda: tg.hvp(P.two_args, (X,), (V,)), "two_args()"),
    (lambda: tg.hessian(P.two_args)(X), "two_args()"),
    (lambda: tg.grad(P.kwonly)(X), "kwonly()"),
    (lambda: tg.value_and_grad(P.kwonly)(X), "kwonly()"),
    (lambda: tg.jvp(P.kwonly, (X,), (V,)), "kwonly()"),
    (lambda: tg.grad(P.kwonly, lowering="plain")(X), "kwonly()")])
def test_missing_arguments_name_the_users_function(call, name):
    """Not `two_args_grad_tan()` or `thunkgrad_factory.<locals>.kwonly_rrule()`."""
    with pytest.raises(TypeError) as info:
        call()
    assert str(info.value).startswith(name), str(info.value)
    assert "_rrule" not in str(info.value) and "_tan" not in str(info.value)


def test_plain_lowering_of_a_tuple_output_says_scalar_output():
    """The plain lowering seeds 1.0 before the output is known: `part(1.0, 0)` failed
    with "'float' object is not subscriptable" from runtime/containers.py."""
    with pytest.raises(TypeError, match="grad needs a scalar output") as info:
        tg.grad(P.returns_tuple, lowering="plain")(X)
    assert HERE in str(info.value)


def test_pullback_refuses_a_number_for_a_string_output():
    with pytest.raises(TypeError, match="returned a str"):
        tg.vjp(P.returns_string, X)[1](1.0)


def test_nested_lambda_in_a_multi_line_dict():
    """`"cube": lambda: grad(lambda a: ...)` inside a dict display: the inner lambda was
    met twice (in the outer lambda's fragment and its own) and refused as "several
    lambdas with the same parameters"."""
    from tests.errs40 import lambdas as L
    np.testing.assert_allclose(L.calls["cube"]()(X), fd_grad(lambda x: np.sum(x ** 3), X),
                               rtol=1e-6)
