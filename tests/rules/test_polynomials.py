"""np.polyval, np.vander and np.select against central differences, at zeros and ties."""
import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_grad
from tests.rules.checks import case, check_float32, check_rule, rand

P4, X5 = rand(4), rand(5, seed=1)
WITH_ZERO = np.array([0.0, -1.2, 0.7, 0.0])
COND = [X5 < -0.3, X5 > 0.2]
CASES = [
    case(np.polyval, P4, X5), case(np.polyval, P4, 0.7, id="polyval-scalar-x"),
    case(np.polyval, P4, rand(2, 3)), case(np.polyval, P4[:1], X5, id="polyval-constant"),
    case(np.polyval, P4[:2], X5, id="polyval-linear"), case(np.polyval, P4, WITH_ZERO),
    case(np.polyval, rand(3, 5, seed=2), X5, id="polyval-array-coefficients"),
    case(np.polyval, rand(3, 1, seed=3), rand(2, 4, seed=4), id="polyval-broadcast-coefficients"),
    case(np.polyval, list(P4), X5, id="polyval-list"),
    case(np.vander, X5), case(np.vander, X5, 3), case(np.vander, X5, N=6, increasing=True),
    case(np.vander, WITH_ZERO), case(np.vander, WITH_ZERO, increasing=True),
    case(np.vander, X5, 1),
    case(np.select, COND, [X5 * 2, rand(5, seed=5)]),
    case(np.select, COND, [X5 * 2, rand(5, seed=5)], 0.5),
    case(np.select, COND, [X5 * 2, rand(5, seed=5)], rand(5, seed=6), id="select-array-default"),
    case(np.select, [X5 < 0.5, X5 > -0.5], [rand(5, seed=7), rand(1, seed=8)],
         rand(1, seed=9), id="select-overlap-broadcast"),
    case(np.select, [rand(2, 5, seed=3) > 0, X5 > 0], [rand(2, 5, seed=10), X5], 1.5,
         id="select-2d"),
]


@pytest.mark.parametrize("fn, args, kwargs", CASES)
def test_matches_finite_differences(fn, args, kwargs):
    check_rule(fn, args, kwargs)


@pytest.mark.parametrize("fn, args, kwargs", CASES)
def test_float32_stays_float32(fn, args, kwargs):
    check_float32(fn, args, kwargs)


def test_select_overlapping_conditions_take_the_first():
    from runtime import lookup, unthunk
    _, pullback = lookup(np.select).rrule([X5 > -2, X5 > -2], [X5 * 1, X5 * 2], 0.0)
    cots = pullback(np.ones(5))
    first, second = unthunk(cots[1])
    np.testing.assert_array_equal(first, np.ones(5))
    np.testing.assert_array_equal(second, np.zeros(5))
    assert unthunk(cots[2]) == 0.0


def poly_loss(p, x):
    v = np.vander(x, 3)
    return np.sum(np.polyval(p, x) ** 2) + np.sum(np.select([x > 0], [v[:, 0]], x) * v[:, 1])


@pytest.mark.parametrize("policy", POLICIES)
def test_poly_program(policy):
    check_grad(poly_loss, [P4, X5], policy=policy)
