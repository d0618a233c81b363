"""np.nanvar and np.nanstd with where=: an entry left out counts as NaN (absent from the
mean, the count and the cotangent). It was refused as a bad keyword before."""
import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_grad, rng
from tests.rules.checks import case, check_float32, check_rule

X = rng("nanwhere", 1).uniform(0.0, 1.0, (3, 4))
MASK = X > 0.2                 # at least two entries in every row and column
WITH_NAN = np.where(X > 0.85, np.nan, X)
CASES = [case(np.nanvar, X, where=MASK), case(np.nanvar, X, axis=1, ddof=1, where=MASK),
         case(np.nanstd, X, axis=0, keepdims=True, where=MASK),
         case(np.nanstd, X, where=MASK[0], id="nanstd-broadcast-where"),
         case(np.nanvar, X, axis=1, where=True, id="nanvar-where-true")]


@pytest.mark.parametrize("fn, args, kwargs", CASES)
def test_matches_finite_differences(fn, args, kwargs):
    check_rule(fn, args, kwargs)


@pytest.mark.parametrize("fn, args, kwargs", CASES)
def test_float32_stays_float32(fn, args, kwargs):
    check_float32(fn, args, kwargs)


def spread_of_valid(x):
    return np.sum(np.nanstd(np.where(x > 0.85, np.nan, x), axis=1, where=x > 0.2))


@pytest.mark.parametrize("policy", POLICIES)
def test_nan_and_where_together_in_a_program(policy):
    check_grad(spread_of_valid, [X], policy=policy)


def test_nan_entry_and_left_out_entry_get_no_cotangent():
    from transform import grad
    g = grad(lambda x: np.nanvar(x, where=MASK))(WITH_NAN)
    assert np.all(g[~MASK | np.isnan(WITH_NAN)] == 0)
    assert np.all(g[MASK & ~np.isnan(WITH_NAN)] != 0)
