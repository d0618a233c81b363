"""Positional-only parameters (`def f(x, /, y)`): grad, value_and_grad, vjp, jvp and hvp
against finite differences (grad raised "f() has no parameter named 'x'" before session
34). The generated rule keeps them positional-only, so a `**kw` takes a keyword of the
same name as Python does, and naming one by keyword is a TypeError as it is for f."""
import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad, numerical_jvp, numerical_vjp
from tests.gradcheck import check_grad, check_vjp
from transform import grad, hvp, jvp, value_and_grad, vjp


def weighted(x, w, /, scale=2.0):
    return np.sum(np.sin(x) * w) * scale


def square(x, /):
    return x * x * np.cos(x)


def keyword_of_the_same_name(x, /, **kw):
    return np.tanh(x) * kw.get("x", 1.0)


def after_the_slash(x, /, y, *, z=0.5):
    return np.sum(x * y) + z * np.sum(np.exp(x))


def helper(a, /, b):
    return np.sin(a) * b


def calling_a_helper(x, y):
    return np.sum(helper(x, y) + helper(y, x))


curve = lambda t, /, s: np.sum(np.cos(t * s))     # noqa: E731


X, W = np.array([0.3, -0.8, 1.1]), np.array([0.7, 0.2, -1.3])


@pytest.mark.parametrize("fn, args", [
    (weighted, (X, W)), (weighted, (X, W, 0.3)), (after_the_slash, (X, W)),
    (calling_a_helper, (X, W)), (curve, (X, W)), (square, (0.7,)),
], ids=["two", "default_given", "after", "helper", "lambda", "scalar"])
def test_grad_and_vjp_match_differences(fn, args):
    wrt = tuple(range(len(args))) if len(args) > 1 else 0
    check_grad(fn, args, wrt=wrt)
    check_vjp(fn, args, wrt=wrt if isinstance(wrt, tuple) else (wrt,))


def test_value_and_grad():
    value, g = value_and_grad(weighted, 1)(X, W, 3.0)
    assert_close(value, weighted(X, W, 3.0), rtol=1e-12, atol=0)
    assert_close(g, numerical_grad(weighted, (X, W, 3.0), 1))


def test_vjp_of_a_vector_output():
    out, pullback = vjp(helper, X, W, wrt=(0, 1))
    cot = np.array([0.5, -1.0, 2.0])
    got = pullback(cot)
    for k in (0, 1):
        assert_close(got[k], numerical_vjp(helper, (X, W), k, cot))


def test_jvp_and_hvp_match_differences():
    v = np.array([1.0, -0.5, 0.25])
    out, tangent = jvp(weighted, (X, W), (v, v))
    want = numerical_jvp(lambda a: weighted(a, W), (X,), 0, v) + \
        numerical_jvp(lambda b: weighted(X, b), (W,), 0, v)
    assert_close(tangent, want)
    got = hvp(after_the_slash, (X, W), (v,))
    assert_close(got, numerical_jvp(lambda a: grad(after_the_slash)(a, W), (X,), 0, v),
                 rtol=1e-5, atol=1e-6)
    assert_close(hvp(square, (0.7,), (1.0,)),
                 numerical_jvp(grad(square), (0.7,), 0, 1.0), rtol=1e-5, atol=1e-6)


def test_a_keyword_named_like_a_positional_only_parameter_goes_to_kw():
    got = grad(keyword_of_the_same_name)(0.4, x=3.0)
    assert_close(got, numerical_grad(lambda a: keyword_of_the_same_name(a, x=3.0), (0.4,), 0))


def test_naming_a_positional_only_parameter_is_a_type_error():
    with pytest.raises(TypeError) as plain:
        square(x=0.7)
    # the message is Python's, naming the user's function (it named square_rrule before)
    for call in (grad(square), value_and_grad(square), lambda **kw: vjp(square, **kw)):
        with pytest.raises(TypeError) as got:
            call(x=0.7)
        assert str(got.value) == str(plain.value)
        assert str(got.value).startswith("square() got some positional-only arguments")
