"""Derivatives of what grad(f, has_aux=True) and value_and_grad(f, has_aux=True) return
(transform/derivatives.py): called inside code that grad, jvp and jacfwd differentiate,
and vjp/jacfwd/jacrev of them directly. aux is a function of the arguments like any
other output, so an outer derivative goes through it (as in JAX); each result against
central differences of the calling function, or of the derivative function itself."""
import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad, numerical_jvp
from tests.gradcheck import rng
from transform import grad, jacfwd, jacrev, jvp, value_and_grad, vjp


def energy(x, w):
    return np.sum(np.sin(w * x) * x ** 2), np.tanh(x) * w


def uses_gradient(x, w):
    g, aux = grad(energy, has_aux=True)(x, w)
    return np.sum(g ** 2) + 0.5 * np.sum(aux)


def uses_aux_only(x, w):
    _, aux = grad(energy, has_aux=True)(x, w)
    return np.sum(aux ** 2)


def uses_value_and_gradient(x, w):
    (value, aux), g = value_and_grad(energy, has_aux=True)(x, w)
    return value * np.sum(g) + np.sum(aux * g)


def uses_both_gradients(x, w):
    (gx, gw), aux = grad(energy, wrt=(0, 1), has_aux=True)(x, w)
    return np.sum(gx * aux) + gw ** 2


R = rng(71)
X, W = R.normal(size=3), 0.7
CALLERS = [uses_gradient, uses_aux_only, uses_value_and_gradient, uses_both_gradients]


@pytest.mark.parametrize("fn", CALLERS, ids=lambda f: f.__name__)
def test_grad_of_a_function_using_a_has_aux_derivative(fn):
    got = grad(fn, wrt=(0, 1))(X, W)
    assert_close(got[0], numerical_grad(fn, [X, W], 0), rtol=1e-6)
    assert_close(got[1], numerical_grad(fn, [X, W], 1), rtol=1e-6)


@pytest.mark.parametrize("fn", CALLERS, ids=lambda f: f.__name__)
def test_jvp_of_a_function_using_a_has_aux_derivative(fn):
    t = R.normal(size=3)
    out, tangent = jvp(fn, (X, W), (t, 0.3))
    want = numerical_jvp(fn, [X, W], 0, t) + numerical_jvp(fn, [X, W], 1, 0.3)
    assert_close(out, fn(X, W), rtol=1e-12)
    assert_close(tangent, want, rtol=1e-6)


def test_vjp_of_a_has_aux_gradient_pairs_with_differences():
    d = grad(energy, has_aux=True)
    v, a, t = R.normal(size=3), R.normal(size=3), R.normal(size=3)
    out, pullback = vjp(d, X, W, wrt=0)
    (cotangent,) = pullback((v, a))

    def paired(x):
        g, aux = d(x, W)
        return np.sum(v * g) + np.sum(a * aux)
    assert_close(np.sum(cotangent * t), numerical_jvp(paired, [X], 0, t), rtol=1e-6)


@pytest.mark.parametrize("jac", [jacfwd, jacrev], ids=["jacfwd", "jacrev"])
def test_jacobians_of_a_has_aux_gradient(jac):
    d = grad(energy, has_aux=True)
    J_g, J_aux = jac(d)(X, W)
    for k in range(3):
        e = np.eye(3)[k]
        assert_close(J_g[:, k], numerical_jvp(lambda x: d(x, W)[0], [X], 0, e), rtol=1e-6)
        assert_close(J_aux[:, k], numerical_jvp(lambda x: d(x, W)[1], [X], 0, e),
                     rtol=1e-6)
