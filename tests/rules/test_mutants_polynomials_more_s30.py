"""Behaviour the mutation run of session 30 (mut30a) found unpinned in
runtime/rules/polynomials_more.py's `_trimmed`: an all-zero factor of three or more
coefficients keeps ONE coefficient (np.polymul reads it as the constant 0), so only the
last coefficient gets a cotangent, the others (moving them off zero lengthens the
product) get 0. With two coefficients, keeping one or all but the first is the same."""
import numpy as np
import pytest

from runtime import lookup, unthunk
from tests.fd import assert_close, numerical_grad


@pytest.mark.parametrize("zeros", [3, 4])
@pytest.mark.parametrize("first_arg", [True, False])
def test_an_all_zero_factor_gets_a_cotangent_in_its_last_coefficient_only(zeros, first_arg):
    a, other = np.zeros(zeros), np.array([0.7, -2.0, 1.5])
    pair = (a, other) if first_arg else (other, a)
    out, pullback = lookup(np.polymul).rrule(*pair)
    g = np.linspace(0.5, 1.5, np.size(out))
    got = unthunk(pullback(g)[0 if first_arg else 1])
    assert got.shape == a.shape and np.all(got[:-1] == 0)

    def last_loss(last):
        full = np.concatenate([a[:-1], last])
        both = (full, other) if first_arg else (other, full)
        return np.sum(np.polymul(*both) * g)
    assert_close(got[-1:], numerical_grad(last_loss, (a[-1:].copy(),), 0))
