"""np.piecewise with callables (runtime/rules/piecewise.py): lambdas, user functions and
NumPy functions as pieces, constants, the 'otherwise' piece, overlapping conditions (the
last one wins), extra args passed to the pieces, against central differences under
every policy; float32; the closure refusal."""
import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_grad, rng
from transform import TransformError, grad

X = rng("piecewise", 1).uniform(-1.0, 1.0, 7)
X = X[np.abs(X) > 0.05]                    # away from the kinks at 0 and +-0.5


def smooth_step(t):
    return 3 * t ** 2 - 2 * t ** 3


def scaled(t, a, b=1.0):
    return a * np.tanh(b * t)


def lambdas(x):
    return np.sum(np.piecewise(x, [x < 0, x >= 0], [lambda t: t ** 2, lambda t: np.sin(t)]))


def user_function_and_constant(x):
    return np.sum(np.piecewise(x, [x < -0.5, x > 0.5], [smooth_step, 0.25, np.exp]) ** 2)


def otherwise_piece(x):
    return np.sum(np.piecewise(x, [x < 0], [lambda t: -t, lambda t: t ** 3]) * np.cos(x))


def overlapping(x):
    # both conditions hold on (0, 0.5): the second one's piece is what remains
    return np.sum(np.piecewise(x, [x > 0, x < 0.5], [np.exp, lambda t: 2 * t]))


def single_condition(x):
    return np.sum(np.piecewise(x, x > 0, [np.sinh, lambda t: t * t]))


def extra_args(x, a):
    return np.sum(np.piecewise(x, [x < 0], [lambda t, a: a * t ** 2, scaled], a))


def keyword_to_pieces(x, a):
    return np.sum(np.piecewise(x, [x < 0, x >= 0], [scaled, scaled], a, b=2.0))


def scalar_piece_result(x):
    return np.sum(np.piecewise(x, [x < 0], [lambda t: 1.5, lambda t: t]) * x)


def matrix_input(x):
    return np.sum(np.piecewise(x, [x < 0], [np.abs, np.square]) @ np.ones(2))


def constant_piece_value(x, c):
    return np.sum(np.piecewise(x, [x < 0], [c, lambda t: t]) * x)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn", [lambdas, user_function_and_constant, otherwise_piece,
                                overlapping, single_condition, scalar_piece_result])
def test_pieces_in_x(fn, policy):
    check_grad(fn, [X], policy=policy)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn", [extra_args, keyword_to_pieces])
def test_args_passed_to_the_pieces(fn, policy):
    check_grad(fn, [X, 1.3], policy=policy)


@pytest.mark.parametrize("policy", POLICIES)
def test_matrix_input(policy):
    check_grad(matrix_input, [X[:6].reshape(3, 2)], policy=policy)


@pytest.mark.parametrize("policy", POLICIES)
def test_constant_piece_is_differentiated(policy):
    check_grad(constant_piece_value, [X, 0.7], policy=policy)


def test_scalar_x():
    check_grad(lambda x: np.piecewise(x, [x < 0], [np.sin, np.cos]) * 1.0, [np.float64(0.3)])


def test_float32_stays_float32():
    g = grad(lambdas)(X.astype(np.float32))
    assert g.dtype == np.float32
    np.testing.assert_allclose(g, grad(lambdas)(X), rtol=1e-5)


def test_forward_value_is_numpys():
    from transform import value_and_grad
    value, _ = value_and_grad(user_function_and_constant)(X)
    assert value == user_function_and_constant(X)


def closure(x, a):
    return np.sum(np.piecewise(x, [x < 0], [lambda t: a * t, lambda t: t]))


@pytest.mark.parametrize("policy", POLICIES)
def test_closure_over_a_differentiated_value(policy):
    # refused until closures were records; now its gradient reaches `a` (round 26)
    check_grad(closure, [X, 1.3], wrt=(0, 1), policy=policy)


def keyword_differentiated(x, a):
    return np.sum(np.piecewise(x, [x < 0, x >= 0], [scaled, scaled], 1.0, b=a))


def test_differentiated_keyword_to_the_pieces_is_refused():
    # keywords go to the pieces undifferentiated: refused, not a silent zero
    with pytest.raises(TransformError, match="`b` of np.piecewise"):
        grad(keyword_differentiated, wrt=1)(X, 1.3)
