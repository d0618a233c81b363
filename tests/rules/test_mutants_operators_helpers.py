"""Behaviour the mutation run (tools/mutate.py) found unpinned in
runtime/rules/operators_helpers.py: max/min ties, zip(*rows) with an unused column and
ragged rows, divmod's first operand, entries that cannot be compared, and sorted over
arrays, tuples and equal entries keyed apart."""
import math

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


def sorted_slices(x):
    rows = [x[0:2], x[2:4], x[4:6]]                  # the same objects come back sorted
    ys = sorted(rows, key=lambda r: r[1])
    return ys[0][0] * 2.0 + ys[2][1] * ys[2][0]      # the middle row is never read


def sorted_rows(w):
    ys = sorted(w, key=lambda r: r[1])               # w's rows are new views each time
    return ys[0][0] * 2.0 + ys[2][1] * ys[2][0]


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn,arg", [
    (sorted_slices, np.array([0.1, 0.5, 0.2, -0.3, 0.7, 0.9])),
    (sorted_rows, np.array([[0.1, 0.5], [0.2, -0.3], [0.7, 0.9]]))],
    ids=["list_of_slices", "rows_of_a_matrix"])
def test_sorted_arrays_by_a_key_against_finite_differences(fn, arg, policy):
    """sorted over arrays (rows, not numbers): a list of them is paired by identity, the
    rows of a 2-D array one by one by value; an unused row's cotangent is zero."""
    check_grad(fn, [arg], wrt=0, policy=policy)


def sorted_pairs(a, b, c):
    pairs = [(a, 2.0), (b, 1.0), (c, 3.0)]
    ys = sorted(pairs, key=lambda p: p[1])
    return ys[0][0] * 2.0 + ys[2][0] * ys[1][0]


@pytest.mark.parametrize("policy", POLICIES)
def test_sorted_tuples_by_a_key_against_finite_differences(policy):
    """sorted tuples come back as the same objects: each goes back to its own position."""
    check_grad(sorted_pairs, [0.1, 0.2, 0.3], wrt=(0, 1, 2), policy=policy)


def sorted_by_sign(a, b):
    xs = [a, -b]                        # at a = b = 0: 0.0 and -0.0, equal but keyed apart
    ys = sorted(xs, key=lambda v: math.copysign(1.0, v))
    return ys[0] * 2.0 + ys[1] * 5.0


@pytest.mark.parametrize("policy", POLICIES)
def test_sorted_pairs_equal_entries_by_identity(policy):
    """sorted moved -b before a though they are equal: each entry's cotangent goes back to
    the entry it came from (pairing equal values in order would swap them, 2 and -5).
    Moving a or b up keeps the order, so one-sided differences are the derivative."""
    h = 1e-6
    one_sided = ((sorted_by_sign(h, 0.0) - sorted_by_sign(0.0, 0.0)) / h,
                 (sorted_by_sign(0.0, h) - sorted_by_sign(0.0, 0.0)) / h)
    got = grad(sorted_by_sign, wrt=(0, 1), policy=policy)(0.0, 0.0)
    assert_close(got, one_sided)
    assert_close(got, (5.0, -2.0))


def smallest_number(xs):
    return sorted(xs)[0] * 2.0                      # two entries never read


def sorted_items(a, b):
    d = {"b": a, "a": b}
    ys = sorted(d.items())                          # new tuples each time: paired by value
    return ys[0][1] * 2.0 + ys[1][1] * 5.0


@pytest.mark.parametrize("policy", POLICIES)
def test_sorted_numbers_with_unused_entries(policy):
    """The entries no one read get zero (not a stand-in)."""
    check_grad(smallest_number, [[0.4, -1.3, 2.2]], wrt=0, policy=policy)


@pytest.mark.parametrize("policy", POLICIES)
def test_sorted_dict_items_against_finite_differences(policy):
    """d.items() with string keys cannot be read as numbers: matched one by one."""
    check_grad(sorted_items, [0.3, 0.8], wrt=(0, 1), policy=policy)


def sorted_records(a, b):
    records = [{"v": a, "k": 2.0}, {"v": b, "k": 1.0}]
    ys = sorted(records, key=lambda r: r["k"])
    return ys[0]["v"] * 2.0 + ys[1]["v"] * ys[0]["v"]


@pytest.mark.parametrize("policy", POLICIES)
def test_sorted_dicts_by_a_key_against_finite_differences(policy):
    """Dicts are not numbers: their cotangents come back as dicts, one per position."""
    check_grad(sorted_records, [0.3, 0.8], wrt=(0, 1), policy=policy)
