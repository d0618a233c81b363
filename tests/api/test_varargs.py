"""`*args` and `**kwargs` of the differentiated function carry data along: the named
parameters are differentiated, the collected ones are not (naming them in wrt is an
error that says so)."""
import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_grad
from transform import grad, value_and_grad, vjp

X = np.array([[1.0, 2.0], [0.5, -1.0], [0.3, 0.4]])
Y = np.array([0.2, 0.1, -0.3])


def least_squares(w, *data):
    inputs, targets = data
    return np.sum((inputs @ w - targets) ** 2)


def weighted(w, *data, scale=1.0, **options):
    return np.sum(w * data[0]) * scale * options.get("extra", 1.0)


@pytest.mark.parametrize("policy", POLICIES)
def test_extra_arguments_are_data(policy):
    w = np.array([0.3, -0.5])
    check_grad(lambda v: least_squares(v, X, Y), (w,), policy=policy)
    expected = 2.0 * X.T @ (X @ w - Y)
    np.testing.assert_allclose(grad(least_squares, policy=policy)(w, X, Y), expected)


def test_keywords_collected_too():
    w = np.array([0.3, -0.5])
    value, g = value_and_grad(weighted)(w, X[0], scale=2.0, extra=3.0)
    assert value == pytest.approx(np.sum(w * X[0]) * 6.0)
    np.testing.assert_allclose(g, X[0] * 6.0)


def test_vjp_differentiates_the_named_parameters():
    w = np.array([0.3, -0.5])
    _, pullback = vjp(least_squares, w, X, Y)
    (dw,) = pullback(1.0)
    np.testing.assert_allclose(dw, 2.0 * X.T @ (X @ w - Y))


def test_naming_the_collected_arguments_in_wrt_says_why():
    with pytest.raises(TypeError, match="collects extra arguments"):
        grad(least_squares, wrt="data")(np.zeros(2), X, Y)
