"""Session 30 (lib30): np.maximum/np.minimum.reduce, np.multiply.accumulate,
np.logaddexp/np.logaddexp2.reduce and np.maximum/np.minimum/np.multiply.reduceat against
central differences (float64, float32, in compiled programs under every policy); ties
of the extreme share the cotangent; what has no rule is refused at the user's line."""
import numpy as np
import pytest

import runtime
from tests.fd import assert_close, numerical_grad
from tests.gradcheck import POLICIES, check_grad
from tests.rules.checks import case, check_float32, check_rule, rand
from transform import TransformError, grad

A34, V5, B62 = rand(3, 4), rand(5, seed=1), rand(6, 2, seed=6)
WITH_ZERO = np.array([[1.5, 0.0, -2.0, 0.4], [0.7, 1.1, 0.0, 0.0]])

CASES = [
    case(np.maximum.reduce, A34), case(np.maximum.reduce, A34, axis=1),
    case(np.maximum.reduce, A34, axis=None), case(np.maximum.reduce, A34, axis=1, keepdims=True),
    case(np.maximum.reduce, A34, axis=1, initial=0.3, id="maximum-reduce-initial"),
    case(np.minimum.reduce, A34), case(np.minimum.reduce, A34, axis=(0, 1)),
    case(np.minimum.reduce, A34, axis=0, initial=-0.2, id="minimum-reduce-initial"),
    case(np.multiply.accumulate, V5), case(np.multiply.accumulate, A34, axis=1),
    case(np.multiply.accumulate, A34), case(np.multiply.accumulate, WITH_ZERO, axis=1),
    case(np.logaddexp.reduce, V5), case(np.logaddexp.reduce, A34, axis=1),
    case(np.logaddexp.reduce, A34, axis=None), case(np.logaddexp.reduce, A34, axis=0, keepdims=True),
    case(np.logaddexp2.reduce, A34, axis=1), case(np.logaddexp2.reduce, V5),
    case(np.maximum.reduceat, V5, [0, 2, 3]), case(np.maximum.reduceat, A34, [0, 2], axis=1),
    case(np.maximum.reduceat, A34, [2, 0, 1], id="maximum-reduceat-decreasing"),
    case(np.minimum.reduceat, B62, [1, 1, 4], id="minimum-reduceat-repeated"),
    case(np.minimum.reduceat, A34, [1, 3], axis=-1),
    case(np.multiply.reduceat, V5, [0, 2, 3]), case(np.multiply.reduceat, A34, [0, 2], axis=1),
    case(np.multiply.reduceat, WITH_ZERO, [0, 1, 3], axis=1, id="multiply-reduceat-zeros"),
    case(np.multiply.reduceat, B62, [3, 1, 1], id="multiply-reduceat-decreasing"),
    # session 36: np.fmax/np.fmin's reduce and accumulate, np.subtract.accumulate,
    # np.hypot.reduce
    case(np.fmax.reduce, A34), case(np.fmax.reduce, A34, axis=1, keepdims=True),
    case(np.fmin.reduce, A34, axis=None), case(np.fmin.reduce, V5),
    case(np.fmax.accumulate, A34, axis=1), case(np.fmin.accumulate, V5),
    case(np.subtract.accumulate, V5), case(np.subtract.accumulate, A34, axis=1),
    case(np.subtract.accumulate, A34),
    case(np.hypot.reduce, V5), case(np.hypot.reduce, A34, axis=1),
    case(np.hypot.reduce, A34, axis=None), case(np.hypot.reduce, A34, axis=0, keepdims=True),
]


@pytest.mark.parametrize("fn, args, kwargs", CASES)
def test_matches_finite_differences(fn, args, kwargs):
    check_rule(fn, args, kwargs)


@pytest.mark.parametrize("fn, args, kwargs", CASES)
def test_float32_stays_float32(fn, args, kwargs):
    check_float32(fn, args, kwargs)


TIES = np.array([0.5, 0.9, 0.2, 0.9, 0.9, 0.1])


@pytest.mark.parametrize("fn, args, expected", [
    (np.maximum.reduce, (TIES,), [0, 2, 0, 2, 2, 0]),
    (np.minimum.reduce, (-TIES,), [0, 2, 0, 2, 2, 0]),
    (np.maximum.reduceat, (TIES, [0, 2]), [0, 6, 0, 1.5, 1.5, 0]),
    (np.minimum.reduceat, (-TIES, [0, 3]), [0, 6, 0, 1.5, 1.5, 0]),
])
def test_tied_extremes_share_the_cotangent(fn, args, expected):
    out, pullback = runtime.lookup(fn).rrule(*args)
    g = np.full(np.shape(out), 6.0) if np.ndim(out) == 0 else np.array([6.0, 3.0])[:np.size(out)]
    cot = runtime.unthunk(pullback(g)[0])
    np.testing.assert_allclose(cot, expected)


def test_an_initial_that_wins_gives_no_cotangent():
    out, pullback = runtime.lookup(np.maximum.reduce).rrule(A34, 1, None, None, False, 5.0)
    assert np.all(out == 5.0)
    assert np.all(runtime.unthunk(pullback(np.ones(3))[0]) == 0)


def methods_loss(x, v):
    peaks = np.maximum.reduce(x * v[:4], axis=1)
    lows = np.minimum.reduceat(x, [0, 2], axis=1)
    scan = np.multiply.accumulate(x, axis=1)
    return np.logaddexp.reduce(peaks) + np.sum(lows ** 2) + np.sum(scan[:, -1]) + \
        np.sum(np.multiply.reduceat(v, [0, 3])) * np.logaddexp2.reduce(v)


@pytest.mark.parametrize("policy", POLICIES)
def test_methods_in_compiled_code(policy):
    check_grad(methods_loss, [A34, V5], policy=policy)


def accumulate_differences(x):
    return np.sum(np.divide.accumulate(x))


def masked_peak(x):
    return np.sum(np.maximum.reduce(x, axis=1, where=x > 0, initial=-5.0))


@pytest.mark.parametrize("fn, message", [
    (accumulate_differences, "np.divide.accumulate has no derivative rule"),
    (masked_peak, r"np.maximum.reduce\(\.\.\., where=\.\.\.\): thunkgrad's derivative rule for "
                  "np.maximum.reduce does not support the keyword `where`"),
])
def test_what_has_no_rule_is_refused_at_the_users_line(fn, message):
    with pytest.raises(TransformError, match=message) as info:
        grad(fn)(A34)
    assert "test_ufunc_methods_more.py" in str(info.value)


def nan_ignoring_extremes(x):
    """np.fmax/np.fmin skip NaN: the NaN entries get no cotangent, the rest as max/min."""
    y = np.where(np.abs(x) < 0.15, np.nan, x)
    return np.fmax.reduce(y * 2.0, axis=1) @ np.arange(1.0, 4.0) + \
        np.sum(np.fmin.accumulate(y, axis=1)[:, -1] ** 2) + np.sum(np.subtract.accumulate(x))


def test_nan_ignoring_extremes_match_differences():
    x = A34.copy()
    x[0, 1], x[2, 3] = 0.1, -0.05                     # NaN there inside the function
    got, want = grad(nan_ignoring_extremes)(x), numerical_grad(nan_ignoring_extremes, (x,), 0)
    assert np.all(np.isfinite(got))
    assert_close(got, want)
