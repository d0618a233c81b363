"""Behaviour the mutation run of session 30 (mut30a) found unpinned in
runtime/rules/operators.py: the comparisons and integer/boolean operators are declared
without derivative (nondiff, operators.py's `nondiff(operator.lt, ...)` line, changed in
session 29 when `|` got its dict-union rule). A differentiated value reaching them is a
mask or an index: the gradient flows only through the arithmetic around them, checked
against central differences under every policy."""
import operator

import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_grad


def masks_and_counts(x):
    big = x > 0.1
    small = operator.le(x, 0.5)
    both = operator.and_(big, small) ^ operator.lt(x, -1.0)
    flipped = operator.invert(both)
    steps = operator.floordiv(x, 0.5)
    same = operator.eq(x, x) & operator.ne(x, 2.0) & operator.ge(x, -3.0)
    kept = np.where(both, x ** 2, np.sin(x)) + np.where(flipped, 0.0, x)
    return np.sum(kept * same + steps * x)


def identities(x, y):
    s = np.sum(x * y)
    if operator.is_(x, y) or operator.is_not(x, x) or operator.not_(s == s):
        return s * 2.0
    return s + np.sum(x ** 2) * operator.contains([1.0, 2.0], 2.0)


@pytest.mark.parametrize("policy", POLICIES)
def test_comparisons_and_bit_operators_carry_no_derivative(policy):
    check_grad(masks_and_counts, [np.array([0.3, -1.2, 0.7, 0.35])], policy=policy)


@pytest.mark.parametrize("policy", POLICIES)
def test_identity_and_membership_tests_carry_no_derivative(policy):
    check_grad(identities, [np.array([0.3, -1.2]), np.array([1.5, 0.25])], policy=policy)
