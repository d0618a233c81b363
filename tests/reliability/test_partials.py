"""A functools.partial handed to every entry is differentiated as a generated function
calling its function (transform/public/partials.py): its bound positional arguments
constants, its bound keywords keyword-only parameters with the bound values as defaults.
Each against central finite differences of the partial itself."""
import functools

import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad
from transform import (grad, hessian, hvp, jacfwd, jacrev, jvp, value_and_grad, vjp,
                       adjoint_source)

X = np.array([[0.5, -1.0], [1.2, 0.3], [-0.7, 0.8]])
Y = np.array([0.1, -0.4, 0.9])
W = np.array([0.3, -0.6])


def quartic(w, X, y, power=4):
    return np.sum(np.abs(X @ w - y) ** power) / len(y)


def residuals(w, X, y):
    return np.tanh(X @ w) - y


BY_KEYWORD = functools.partial(quartic, X=X, y=Y)
BY_POSITION = functools.partial(quartic, W, X)          # w, a differentiated position,
                                                        # bound: a constant


def fd(f, args, k):
    return numerical_grad(f, list(args), k)


def test_grad_and_value_and_grad_by_position_and_name():
    want = fd(BY_KEYWORD, [W], 0)
    assert_close(grad(BY_KEYWORD)(W), want)
    assert_close(grad(BY_KEYWORD, "w")(W), want)
    value, g = value_and_grad(BY_KEYWORD)(W)
    assert_close(value, BY_KEYWORD(W)) and assert_close(g, want)


def test_a_bound_keyword_is_a_parameter_with_its_value_as_default():
    assert_close(grad(BY_KEYWORD, "X")(W), fd(lambda X_: quartic(W, X_, Y), [X], 0))
    assert_close(grad(BY_KEYWORD, "power")(W, power=3.0),
                 fd(lambda p: quartic(W, X, Y, p), [3.0], 0))
    other = Y[::-1].copy()                    # overridden at the call, as partial's are
    assert_close(grad(BY_KEYWORD)(W, y=other), fd(lambda w: quartic(w, X, other), [W], 0))


def test_bound_positions_are_constants():
    assert_close(grad(BY_POSITION)(Y), fd(lambda y: quartic(W, X, y), [Y], 0))
    assert_close(grad(BY_POSITION, 1)(Y, 3.0), fd(lambda p: quartic(W, X, Y, p), [3.0], 0))


def test_vjp_jvp_and_jacobians():
    f = functools.partial(residuals, X=X, y=Y)
    J = np.stack([fd(lambda w, i=i: f(w)[i], [W], 0) for i in range(3)])
    out, pullback = vjp(f, W)
    assert_close(out, f(W)) and assert_close(pullback(Y)[0], Y @ J)
    assert_close(jvp(f, (W,), (np.array([1.0, -2.0]),))[1], J @ np.array([1.0, -2.0]))
    assert_close(jacfwd(f)(W), J)
    assert_close(jacrev(f)(W), J)


@pytest.mark.parametrize("route", ["forward_over_reverse", "reverse_over_forward", "auto"])
def test_hvp_and_hessian(route):
    g = grad(BY_KEYWORD)
    H = np.stack([fd(lambda w, i=i: g(w)[i], [W], 0) for i in range(2)])
    v = np.array([0.7, -0.2])
    assert_close(hvp(BY_KEYWORD, (W,), (v,), route=route), H @ v)
    assert_close(hessian(BY_KEYWORD, route=route)(W), H)


def test_grad_of_grad_of_a_partial_and_its_source():
    g = grad(BY_POSITION)
    assert_close(grad(lambda y: np.sum(g(y) ** 2))(Y),
                 fd(lambda y: np.sum(g(y) ** 2), [Y], 0))
    assert "target(_bound0, _bound1, y, power)" in adjoint_source(BY_POSITION)
