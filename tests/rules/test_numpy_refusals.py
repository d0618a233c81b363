"""Values being differentiated that reach a position the new NumPy rules do not cover
are refused at compile time, at the user's line, never given a silent zero."""
import numpy as np
import pytest

from transform import TransformError, grad

XP = np.array([0.0, 0.5, 1.0, 2.0])
FP = np.array([1.0, -1.0, 0.5, 2.0])
M = np.array([[0.3, -0.2, 0.9, 0.4], [1.1, 0.5, -0.7, 0.2]])


def interp_in_knots(xp):
    return np.sum(np.interp(np.array([0.25, 1.5]), xp, FP))


def interp_period(period):
    return np.sum(np.interp(np.array([0.25, 1.5]), XP, FP, period=period))


def cov_in_weights(w):
    return np.sum(np.cov(M, aweights=w))


def square(v):
    return v ** 2


def piecewise_of_x(x):
    return np.sum(np.piecewise(x, [x < 0.5, x >= 0.5], [square, 1.5]))


@pytest.mark.parametrize("fn, arg", [(interp_in_knots, XP), (interp_period, 3.0),
                                     (cov_in_weights, np.array([1.0, 2.0, 0.5, 1.5]))],
                         ids=["interp-xp", "interp-period", "cov-aweights"])
def test_refused_at_compile_time(fn, arg):
    with pytest.raises(TransformError, match="no derivative rule"):
        grad(fn)(arg)


def test_piecewise_of_x_is_differentiated_now():
    # refused until np.piecewise had a rule (runtime/rules/piecewise.py)
    from tests.gradcheck import check_grad
    check_grad(piecewise_of_x, [np.array([0.2, 0.9])])


def selected(x):
    """What to write instead of np.piecewise: both pieces on x, then np.select."""
    return np.sum(np.select([x < 0.5, x >= 0.5], [x ** 2, 2 * x]))


def test_the_select_form_of_piecewise_is_differentiated():
    from tests.gradcheck import check_grad
    check_grad(selected, [np.array([0.2, 0.9, 0.4])])
