"""Session 34 (carried): `np.multiply.at`, `np.divide.at`, `np.maximum.at`,
`np.minimum.at` as statements, written `a[...] = multiplied_at(a, indices, b)` and so on
(transform/frontend/ufunc_at.py, runtime/rules/ufunc_at_more.py): the rules against
central differences in a and b (float64, float32; repeated indices, index tuples,
broadcast b, a zero among the factors at one place), their JVPs against differences,
and programs (a loop, an argument written into: the caller's array unchanged)."""
import numpy as np
import pytest

from runtime.rules.ufunc_at_more import divided_at, maximized_at, minimized_at, multiplied_at
from tests.fd import assert_close, numerical_jvp
from tests.gradcheck import check_grad
from tests.rules.checks import case, check_float32, check_rule, rand
from transform import jvp

A34, V5, V3 = rand(3, 4), rand(5, seed=1), rand(3, seed=2)
REPEATED = np.array([0, 2, 0, 0, 1])
WITH_ZERO = np.array([0.7, 0.0, -1.3, 0.4, 2.0])        # a zero factor at place 0

CASES = [
    case(multiplied_at, V3, REPEATED, V5, id="multiply-repeated"),
    case(multiplied_at, V3, REPEATED, WITH_ZERO, id="multiply-a-zero-factor"),
    case(multiplied_at, A34, (np.array([0, 2, 0]), np.array([1, 1, 1])), V3, id="multiply-tuple"),
    case(multiplied_at, A34, (slice(None), [3, 0, 3]), rand(3, 1, seed=4), id="multiply-bcast"),
    case(divided_at, V3, REPEATED, V5 + 1.5, id="divide-repeated"),
    case(divided_at, A34, [2, 0, 2], 0.7, id="divide-scalar-b"),
    case(maximized_at, V3, REPEATED, V5, id="maximum-repeated"),
    case(maximized_at, A34, (slice(None), [3, 0, 3]), rand(3, 1, seed=5), id="maximum-bcast"),
    case(minimized_at, V3, REPEATED, V5, id="minimum-repeated"),
    case(minimized_at, A34, [1, 1], rand(2, 4, seed=6), id="minimum-rows"),
]


@pytest.mark.parametrize("fn, args, kwargs", CASES)
def test_matches_finite_differences(fn, args, kwargs):
    check_rule(fn, args, kwargs)


@pytest.mark.parametrize("fn, args, kwargs", CASES)
def test_float32_stays_float32(fn, args, kwargs):
    check_float32(fn, args, kwargs)


def scaled_bins(x, w):
    gains = np.ones(3)
    np.multiply.at(gains, [0, 1, 1, 2, 0], x)
    np.divide.at(gains, [2, 2], w + 2.0)
    return np.sum(gains * np.array([1.0, 2.0, 3.0])) + gains[0] * w


def running_peaks(x, W):
    peak = np.full((3, 2), -5.0)
    low = np.full((3, 2), 5.0)
    for i in range(4):
        np.maximum.at(peak, [i % 3, 0], W[i] * x[i])
        np.minimum.at(low, [i % 3, 1], W[i] - x[i])
    return np.sum(np.tanh(peak) ** 2) + np.sum(low ** 2)


def into_the_argument(x, w):
    np.multiply.at(x, [1, 1], w)
    return np.sum(x ** 3)


@pytest.mark.parametrize("fn, args", [(scaled_bins, (rand(5, seed=7), 0.8)),
                                      (running_peaks, (V5, rand(4, 2, seed=8))),
                                      (into_the_argument, (V3, 0.4))],
                         ids=["bins", "loop", "argument"])
def test_programs_match_finite_differences(fn, args):
    check_grad(fn, args)


def test_forward_mode():
    x, w = rand(5, seed=7), 0.8
    v = rand(5, seed=9)
    out, tangent = jvp(scaled_bins, (x, w), (v, 0.3))
    assert_close(out, scaled_bins(x, w))
    want = numerical_jvp(scaled_bins, (x, w), 0, v) + 0.3 * numerical_jvp(scaled_bins, (x, w), 1,
                                                                           1.0)
    assert_close(tangent, want)
