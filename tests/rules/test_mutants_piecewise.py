"""Behaviour the mutation run (docs/testing.md, mut27r) found unpinned in
runtime/rules/piecewise.py: like np.piecewise, a piece whose condition holds nowhere is
never called (a piece that cannot take an empty array, such as one normalising by its
maximum, works there too); an integer x has no cotangent."""
import numpy as np
import pytest

import runtime
from tests.gradcheck import POLICIES, check_grad


def normalised_where_large(x):
    # no element exceeds 10: the first piece is never called (np.max of an empty array fails)
    return np.sum(np.piecewise(x, [x > 10.0], [lambda t: t / np.max(t), lambda t: t ** 2]))


@pytest.mark.parametrize("policy", POLICIES)
def test_a_piece_whose_condition_holds_nowhere_is_not_called(policy):
    x = np.array([0.3, -0.7, 1.1, 0.25])
    assert normalised_where_large(x) == pytest.approx(np.sum(x ** 2))
    check_grad(normalised_where_large, [x], policy=policy)


def test_an_integer_x_has_no_cotangent():
    x = np.arange(-2, 3)
    out, pullback = runtime.lookup(np.piecewise).rrule(x, [x < 0], [lambda t: -t, lambda t: t])
    assert np.array_equal(out, np.abs(x))
    assert pullback(np.ones(5)) == (None, None, None)
    # one slot per extra argument too
    out, pullback = runtime.lookup(np.piecewise).rrule(x, [x < 0], [lambda t, a, b: -t * a,
                                                                    lambda t, a, b: t * b], 2, 3)
    assert np.array_equal(out, np.where(x < 0, -2 * x, 3 * x))
    assert pullback(np.ones(5)) == (None,) * 5


def two_args(x, a, b):
    return np.sum(np.piecewise(x, [x < 0], [lambda t, a, b: a * t ** 2 + b,
                                            lambda t, a, b: np.sin(b * t) * a], a, b))


@pytest.mark.parametrize("policy", POLICIES)
def test_two_differentiated_args_passed_to_the_pieces(policy):
    x = np.array([0.3, -0.7, 1.1, -0.25])
    check_grad(two_args, [x, 0.8, -1.3], wrt=(0, 1, 2), policy=policy)


@pytest.mark.parametrize("funcs", [1, 4])
def test_a_wrong_number_of_pieces_is_numpys_error(funcs):
    x = np.array([0.3, -0.7, 1.1])
    pieces = [np.sin] * funcs
    with pytest.raises(ValueError, match="with 2 condition[(]s[)], either 2 or 3 functions"):
        runtime.lookup(np.piecewise).rrule(x, [x < 0, x > 1], pieces)
