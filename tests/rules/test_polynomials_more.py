"""np.polyadd, np.polysub, np.polymul, np.polyder, np.polyint and np.polyfit
(runtime/rules/polynomials_more.py) against central differences, float32, and from
compiled code under every policy; polyfit in x is refused."""
import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_grad
from tests.rules.checks import case, check_float32, check_rule, rand
from transform import TransformError, grad

P3, P5, P1 = rand(3, seed=1), rand(5, seed=2), rand(1, seed=3)
X8, Y8, W8 = np.linspace(-1.0, 2.0, 8), rand(8, seed=4), rand(8, seed=5, low=0.5, high=1.5)

CASES = [
    case(np.polyadd, P3, P5), case(np.polyadd, P5, P3), case(np.polyadd, P1, P3),
    case(np.polysub, P3, P5), case(np.polysub, P5, P5[::-1]),
    case(np.polymul, P3, P5), case(np.polymul, P1, P3),
    case(np.polyder, P5), case(np.polyder, P5, 2), case(np.polyder, P3, 3),
    case(np.polyint, P3), case(np.polyint, P3, 2), case(np.polyint, P3, 2, P3[:2]),
    case(np.polyint, P5, 1, 0.7),
    case(np.polyfit, X8, Y8, 2), case(np.polyfit, X8, np.stack([Y8, W8], 1), 3),
    case(np.polyfit, X8, Y8, 1, w=W8),
]


@pytest.mark.parametrize("fn, args, kwargs", CASES)
def test_matches_finite_differences(fn, args, kwargs):
    argnums = [1] if fn is np.polyfit else None
    check_rule(fn, args, kwargs, argnums=argnums)


@pytest.mark.parametrize("fn, args, kwargs", CASES)
def test_float32_stays_float32(fn, args, kwargs):
    check_float32(fn, args, kwargs, argnums=[1] if fn is np.polyfit else None)


def trend(y, p):
    coefficients = np.polyfit(np.linspace(0.0, 1.0, y.size), y, 2)
    slope = np.polyder(np.polymul(coefficients, p))
    area = np.polyint(np.polysub(np.polyadd(slope, p), coefficients[:2]), 1, p[0])
    return np.sum(np.polyval(area, 0.7) ** 2) + np.sum(slope * np.arange(slope.size))


@pytest.mark.parametrize("policy", POLICIES)
def test_trend_program(policy):
    check_grad(trend, [Y8, P3], policy=policy)


def fit_in_x(x):
    return np.sum(np.polyfit(x, Y8, 2))


def test_polyfit_in_x_is_refused():
    with pytest.raises(TransformError, match="polyfit"):
        grad(fit_in_x)(X8)
