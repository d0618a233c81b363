"""Folding literals (`x ** (2 - 1)` -> `x`) and merging like terms must never leave a
gradient that is the user's array, the cotangent passed in, or a buffer the generated
code later updates in place: after grad or vjp, every argument and cotangent is as it
was, and updating a returned gradient in place changes nothing the caller holds nor what
the next call returns. Every policy; every function is one whose templates fold to (or
next to) a bare primal or cotangent."""
import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_grad, check_vjp
from transform import grad, vjp


def power_one(x):
    return np.sum(x ** 1)


def half_square(x):                  # the gradient is x itself, in value
    return 0.5 * np.sum(x ** 2)


def half_self_product(W):            # d = 2 * (g * W): W in value
    return np.sum(W * W) * 0.5


def times_one(x):                    # the gradient is the cotangent itself, in value
    return x * 1


def power_one_vector(x):
    return x ** 1 * 1


def shifted_times_one(x):           # dt1 = dt2 * 1: never the cotangent passed in
    return (x + 0.0) * 1


def shifted_power_one(x):
    y = x + 0.0
    return y ** 1


def doubled(x):                      # g + g
    return x + x


def doubled_then_more(x):            # dx = 2 * g, then dx += ... in place
    return np.sin(x) * x + (x + x)


def squares_in_a_loop(x, n):
    s = x * 0.0
    for i in range(n):
        s = s + x ** 1 + 0.5 * x ** 2
    return np.sum(s)


def rebinds_then_squares(x):
    y = x ** 1
    y = y * y
    return np.sum(y) * 0.5


def scalar_square(a):                # floats: the fold of a Python number
    return a ** 2 * 0.5 + a ** 1


X = np.array([0.3, -1.2, 2.0])
SCALAR_OUT = [(power_one, (X,)), (half_square, (X,)), (half_self_product, (X.reshape(3, 1),)),
              (squares_in_a_loop, (X, 3)), (rebinds_then_squares, (X,)), (scalar_square, (0.7,))]
ARRAY_OUT = [(times_one, (X,)), (power_one_vector, (X,)), (shifted_times_one, (X,)),
             (shifted_power_one, (X,)), (doubled, (X,)),
             (doubled_then_more, (X,))]
ALL = SCALAR_OUT + ARRAY_OUT
IDS = [f.__name__ for f, _ in ALL]


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn, args", SCALAR_OUT, ids=[f.__name__ for f, _ in SCALAR_OUT])
def test_gradients_right_and_arguments_untouched(fn, args, policy):
    check_grad(fn, args, wrt=0, policy=policy)      # read-only arguments: a write raises


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn, args", ARRAY_OUT, ids=[f.__name__ for f, _ in ARRAY_OUT])
def test_vjps_right_and_arguments_untouched(fn, args, policy):
    check_vjp(fn, args, wrt=0, policy=policy)


def _copies(args):
    return [a.copy() if isinstance(a, np.ndarray) else a for a in args]


def _assert_owned(result, held):
    """`result` updated in place leaves every array in `held` as it was."""
    if not isinstance(result, np.ndarray):
        return                                   # a number: nothing to update in place
    before = [h.copy() for h in held]
    for h in held:
        assert not np.shares_memory(result, h)
    result += 1.0
    for h, b in zip(held, before):
        assert np.array_equal(h, b)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn, args", SCALAR_OUT, ids=[f.__name__ for f, _ in SCALAR_OUT])
def test_a_gradient_updated_in_place_aliases_nothing(fn, args, policy):
    args = _copies(args)
    g = grad(fn, wrt=0, policy=policy)
    first = g(*args)
    expected = np.copy(first)
    _assert_owned(first, [a for a in args if isinstance(a, np.ndarray)])
    assert np.array_equal(g(*args), expected)        # the next call is not the updated one


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn, args", ARRAY_OUT, ids=[f.__name__ for f, _ in ARRAY_OUT])
def test_a_vjp_updated_in_place_aliases_nothing(fn, args, policy):
    args = _copies(args)
    out, pullback = vjp(fn, *args, wrt=0, policy=policy)
    cotangent = np.array([0.5, -2.0, 1.5])
    kept = cotangent.copy()
    cotangent.setflags(write=False)             # an update in place of it raises
    (first,) = pullback(cotangent)
    expected = first.copy()
    _assert_owned(first, [cotangent, out, *[a for a in args if isinstance(a, np.ndarray)]])
    assert np.array_equal(cotangent, kept)
    (again,) = pullback(cotangent)
    assert np.array_equal(again, expected)
