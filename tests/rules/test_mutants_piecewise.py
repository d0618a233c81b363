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
