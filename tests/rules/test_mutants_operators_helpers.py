"""Behaviour the mutation run (tools/mutate.py) found unpinned in
runtime/rules/operators_helpers.py: max/min ties, zip(*rows) with an unused column and
ragged rows, divmod's first operand, and entries that cannot be compared."""
import numpy as np
import pytest

from runtime.rules.operators_helpers import _same
from tests.fd import assert_close, numerical_grad
from tests.gradcheck import POLICIES, check_grad
from transform import grad


def max_of_array(x):
    return max(x) * 2.0


@pytest.mark.parametrize("policy", POLICIES)
def test_builtin_max_of_an_array_splits_a_tie(policy):
    """max(x) over an array with a tie: each tied entry gets half (the central difference
    at a tie gives exactly that)."""
    x = np.array([1.0, 3.0, 3.0, -2.0])
    got = grad(max_of_array, policy=policy)(x)
    assert_close(got, numerical_grad(max_of_array, (x,), 0))
    assert_close(got, [0.0, 1.0, 1.0, 0.0])


def max_of_pairs(a):
    best = max([(a, 2.0), (a, 2.0)])
    return best[0] * 3.0


@pytest.mark.parametrize("policy", POLICIES)
def test_builtin_max_of_tied_tuples_with_an_unused_part(policy):
    """Tied tuples share the cotangent; a part no one read (None) stays None."""
    got = grad(max_of_pairs, policy=policy)(0.7)
    assert got == pytest.approx(3.0, abs=1e-12)


def first_column(rows):
    a, b = zip(*rows)
    return a[0] * 2.0 + a[1] * a[2]


def ragged(rows):
    a, b = zip(*rows)
    return a[0] * b[1] + rows[0][2] * 5.0


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn,rows", [
    (first_column, [(0.3, 1.5), (-1.2, 0.7), (0.4, -0.9)]),       # b is never read
    (ragged, [(0.3, 1.5, 2.0), (-1.2, 0.7)])],                     # zip stops at 2
    ids=["unused_column", "ragged_rows"])
def test_zip_of_rows_against_finite_differences(fn, rows, policy):
    check_grad(fn, [rows], wrt=0, policy=policy)


def quotient_and_remainder(x, y):
    q, r = divmod(x, y)
    return r * r + q


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("wrt", [0, 1])
def test_divmod_operands(wrt, policy):
    """divmod(x, y): x's cotangent is the remainder's, y's minus the quotient times it."""
    args = (7.3, 2.1)
    got = grad(quotient_and_remainder, wrt=wrt, policy=policy)(*args)
    assert_close(got, numerical_grad(quotient_and_remainder, args, wrt), rtol=1e-6)


def test_entries_that_cannot_be_compared_are_not_the_answer():
    """_same: arrays of other shapes (comparison fails) are not the max's answer."""
    assert _same(np.zeros(2), np.zeros(3)) is False
    assert _same(np.ones(3), np.ones(3)) is True


def sorted_numbers(xs):
    ys = sorted(xs)
    return ys[0] * 2.0 + ys[2] * ys[1]


def sorted_array(x):
    ys = sorted(x)
    return ys[0] * 2.0 + ys[2] * ys[1]


def listed_array(x):
    ys = list(x)
    return ys[0] * 2.0 + ys[2] * ys[1]


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn,arg", [(sorted_numbers, [0.4, -1.3, 2.2]),
                                    (sorted_array, np.array([0.4, -1.3, 2.2])),
                                    (listed_array, np.array([0.4, -1.3, 2.2]))],
                         ids=["sorted_list", "sorted_array", "list_of_array"])
def test_sequences_of_numbers_against_finite_differences(fn, arg, policy):
    """sorted/list of numbers: the entries' cotangents come back as one array (a list
    argument's gradient is a list of the same length)."""
    check_grad(fn, [arg], wrt=0, policy=policy)
