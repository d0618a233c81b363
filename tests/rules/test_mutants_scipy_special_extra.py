"""Behaviour the mutation run (tools/mutate.py) found unpinned in
runtime/rules/scipy_special_extra.py: each test kills a mutant the other tests let through."""
from decimal import Decimal, localcontext

import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad
from tests.gradcheck import POLICIES
from tests.rules.checks import check_float32, check_rule

sc = pytest.importorskip("scipy.special")

from transform import grad  # noqa: E402

X = np.array([0.4, 1.9, 6.0])


def boxcox_total(lmbda):
    return np.sum(sc.boxcox(X, lmbda))


def boxcox_slope_to_50_digits(lmbda):
    """d/dl sum (x^l - 1) / l = sum (t e^t - e^t + 1) / l^2, t = l log x, in 50-digit
    decimals (no cancellation left at the float64 precision)."""
    total = Decimal(0)
    with localcontext() as ctx:
        ctx.prec = 50
        lam = Decimal(lmbda)
        for x in X:
            t = lam * Decimal(float(x)).ln()
            total += (t * t.exp() - t.exp() + 1) / (lam * lam)
    return float(total)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("t", [9.9e-5, -9.9e-5, 6e-5])
def test_boxcox_slope_in_lambda_is_accurate_just_inside_the_series(t, policy):
    """Near lambda = 0 the rule sums the series log(x)^2 (1/2 + t/3 + t^2/8); its t^2
    term changes the slope by t^2/4 (2.5e-9 relative at |t| = 1e-4), far below what
    central differences resolve, so the slope is compared with the exact quotient in
    50-digit arithmetic to 1e-11. lmbda puts |t| = |lmbda log x| just under the 1e-4
    switch for the largest x."""
    lmbda = t / np.log(X[-1])
    got = grad(boxcox_total, policy=policy)(lmbda)
    assert_close(got, boxcox_slope_to_50_digits(lmbda), rtol=1e-11, atol=0)


POS = np.array([[0.6, 1.4, 2.2], [0.9, 1.8, 3.1]])


@pytest.mark.parametrize("args", [(np.array([0.7, 1.3, 2.1]), 2.5, POS), (1.3, 1.5, POS)],
                         ids=["rate-array", "rate-number"])
def test_gdtrc_in_rate_and_x(args):
    """gdtrc(a, b, x) = 1 - gdtr: differentiated in its rate a (only gdtr's rate was
    checked) and in x."""
    check_rule(sc.gdtrc, args, argnums=[0, 2])
    check_float32(sc.gdtrc, args, argnums=[0, 2])


def survival(rate, x):
    return np.sum(sc.gdtrc(rate, 2.5, x) * x)


@pytest.mark.parametrize("policy", POLICIES)
def test_gdtrc_program(policy):
    args = (np.array([0.7, 1.3, 2.1]), POS)
    for wrt in (0, 1):
        assert_close(grad(survival, wrt=wrt, policy=policy)(*args),
                     numerical_grad(survival, args, wrt), rtol=1e-5, atol=1e-8)


def huber_below_zero(delta, r):
    return np.sum(np.exp(-sc.huber(delta, r)))           # exp(-inf) = 0 where delta < 0


@pytest.mark.parametrize("policy", POLICIES)
def test_huber_with_a_negative_threshold_has_zero_cotangents(policy):
    """huber(delta, r) is inf (a constant) for delta < 0: its cotangents are 0 there,
    not the inf or nan of dividing by (delta >= 0)."""
    delta, r = np.array([-0.5, 0.4, -0.1, -0.2]), np.array([0.3, -0.9, 1.2, 0.0])
    for wrt in (0, 1):
        got = grad(huber_below_zero, wrt=wrt, policy=policy)(delta, r)
        assert_close(got, numerical_grad(huber_below_zero, (delta, r), wrt), rtol=1e-5,
                     atol=1e-8)


def rounded_scale(x):
    return np.sum(x * sc.round(3 * x) + x * x * sc.gammasgn(x - 1.5))


@pytest.mark.parametrize("policy", POLICIES)
def test_round_and_gammasgn_are_steps_with_zero_derivative(policy):
    """sc.round and sc.gammasgn are declared nondiff (zero): differentiated, not refused."""
    x = np.array([0.4, 1.1, -0.6, 2.3])
    assert_close(grad(rounded_scale, policy=policy)(x), numerical_grad(rounded_scale, (x,), 0),
                 rtol=1e-5, atol=1e-8)


def huber_total(delta, r):
    return np.sum(sc.huber(delta, r))


@pytest.mark.parametrize("policy", POLICIES)
def test_huber_threshold_zero_takes_the_right_hand_slope(policy):
    """At delta = 0 huber is inf to the left and delta |r| - delta^2 / 2 to the right: the
    rule gives the right-hand slope sum |r| (a forward difference), not 0."""
    r = np.array([0.7, -1.2, 2.5])
    got = grad(huber_total, wrt=0, policy=policy)(0.0, r.copy())
    h = 1e-7
    forward = (huber_total(h, r) - huber_total(0.0, r)) / h
    assert_close(got, forward, rtol=1e-6)
    assert_close(got, np.sum(np.abs(r)), rtol=1e-12)
