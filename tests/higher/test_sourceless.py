"""jvp, jacfwd, hvp, hessian and grad of grad of a function with a registered rule and no
Python source (np.sin, np.sum, np.linalg.norm: transform/public/sourced.py), against
central differences; int arguments to hessian refused with grad's TypeError."""
import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad, numerical_jvp
from transform import TransformError, grad, hessian, hvp, jacfwd, jvp

X = np.array([0.3, -0.5, 0.8])
V = np.array([0.7, 0.2, -0.4])


def _fd_hessian(f, x):
    """Differences of grad(f), grad itself checked against differences of f first."""
    assert_close(grad(f)(x), numerical_grad(f, (x,), 0), 1e-6, 1e-8, "grad")
    return np.stack([numerical_grad(lambda y: grad(f)(y)[i], (x,), 0)
                     for i in range(x.size)])


@pytest.mark.parametrize("f", [np.sin, np.tanh, np.exp, np.cumsum])
def test_jvp_and_jacfwd_of_a_numpy_function(f):
    out, out_dot = jvp(f, (X,), (V,))
    assert_close(out, f(X), 1e-12, 1e-12)
    assert_close(out_dot, numerical_jvp(f, (X,), 0, V), 1e-6, 1e-8, "jvp")
    want = np.stack([numerical_jvp(f, (X,), 0, e) for e in np.eye(3)], axis=-1)
    assert_close(jacfwd(f)(X), want, 1e-6, 1e-8, "jacfwd")


def test_jvp_of_a_two_argument_ufunc():
    out, out_dot = jvp(np.hypot, (X, V), (V, X))
    want = numerical_jvp(lambda t: np.hypot(X + t * V, V + t * X), (0.0,), 0, 1.0)
    assert_close(out_dot, want, 1e-6, 1e-8, "jvp")


@pytest.mark.parametrize("f", [np.linalg.norm, np.prod, np.sum])
def test_hvp_and_hessian_of_a_numpy_function(f):
    want = _fd_hessian(f, X)
    assert_close(hessian(f)(X), want, 1e-5, 1e-7, "hessian")
    assert_close(hvp(f, (X,), (V,)), want @ V, 1e-5, 1e-7, "hvp")


@pytest.mark.parametrize("f", [np.sin, np.tanh, np.log1p])
def test_grad_of_grad_of_a_numpy_function(f):
    x = 0.4
    first = grad(f)
    assert_close(first(x), numerical_grad(f, (x,), 0), 1e-6, 1e-8, "grad")
    assert_close(grad(first)(x), numerical_grad(first, (x,), 0), 1e-6, 1e-8, "grad grad")


def test_a_builtin_with_no_rule_is_refused_clearly():
    with pytest.raises(TransformError, match="no derivative rule and no Python source"):
        jvp(np.frompyfunc(abs, 1, 1), (X,), (V,))


def test_hessian_of_an_int_argument_is_grads_type_error():
    def f(a):
        return a * a
    wording = "cannot differentiate with respect to 'a': it is int, not a float"
    for derivative in (grad, jacfwd, hessian):
        with pytest.raises(TypeError, match=wording):
            derivative(f)(3)
    with pytest.raises(TypeError, match="it is ndarray, not a float"):
        hessian(lambda a: np.sum(a * a))(np.arange(3))


def test_grad_of_grad_of_a_rule_without_named_parameters_says_why():
    x = np.array([0.3, 0.5])
    first = grad(np.einsum, 1)
    assert_close(first("i,i->", x, X[:2]), X[:2], 1e-12, 1e-12, "grad")
    with pytest.raises(TransformError, match="registered rule, which gives first"):
        grad(first, 1)("i,i->", x, X[:2])


def test_more_arguments_than_the_wrapper_takes_is_a_clear_type_error():
    m = np.ones((2, 3))
    for call in (lambda: jvp(np.sum, (m, 0), (m,)), lambda: jacfwd(np.sum)(m, 0),
                 lambda: hessian(np.sum)(m, 0), lambda: hvp(np.sum, (m, 0), (m,))):
        with pytest.raises(TypeError, match=r"without a default only \(a\), got 2"):
            call()
