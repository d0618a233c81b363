"""Session 39, item 6: the derivative of a real `x ** p` in p where x < 0. It was 0
(log x taken as 0 for x <= 0): finite where central differences give NaN (x ** p is NaN
at non-integer p, so p -> x ** p has no derivative). Now NaN, as JAX's log(x); 0 where
x == 0 (0 ** p is constant for p > 0); an element whose cotangent (or tangent) is 0
adds nothing, so a masked power stays finite. grad, jvp and hvp agree with differences."""
import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad, numerical_jvp
from tests.red2.check import fd_hessian
from transform import grad, hvp, jvp

X = np.array([-2.0, 1.5, 0.0, 0.7])
P = 3.0


def plain(x, p):
    return np.sum(x ** p)


def through_power(x, p):
    return np.sum(np.power(x, p) * np.array([1.0, 2.0, 3.0, 4.0]))


def masked(x, p):
    return np.sum(np.where(x > 0, x ** p, 0.0))


def nonnegative(x, p):
    return np.sum(np.tanh(np.abs(x) ** p))


@pytest.mark.parametrize("f", [plain, through_power])
def test_negative_base_in_the_exponent_is_nan_like_differences(f):
    with np.errstate(invalid="ignore"):
        want = numerical_grad(f, (X, P), 1)
        assert np.isnan(want)
        assert np.isnan(grad(f, wrt=1)(X, P))
        assert np.isnan(jvp(f, (X, P), (1.0,), wrt=1)[1])
        assert_close(grad(f, wrt=0)(X, P), numerical_grad(f, (X, P), 0))   # in x: finite


@pytest.mark.parametrize("f", [masked, nonnegative])
def test_masked_or_nonnegative_base_is_finite(f):
    want = numerical_grad(f, (X, P), 1)
    assert np.isfinite(want)
    assert_close(grad(f, wrt=1)(X, P), want)
    assert_close(jvp(f, (X, P), (1.0,), wrt=1)[1], numerical_jvp(f, [X, P], 1, 1.0))
    second = np.ravel(fd_hessian(lambda p: f(X, p), (P,), 0))[0]
    for route in ("reverse_over_forward", "forward_over_reverse"):
        assert_close(hvp(f, (X, P), (1.0,), wrt=1, route=route), second, rtol=1e-4,
                     atol=1e-5)


def test_zero_base_has_zero_slope_in_the_exponent():
    f = plain
    x = np.array([0.0, 1.2])
    assert_close(grad(f, wrt=1)(x, 2.5), numerical_grad(f, (x, 2.5), 1))


def test_float32_stays_float32():
    x = X.astype(np.float32)
    with np.errstate(invalid="ignore"):
        got = grad(masked, wrt=0)(x, np.float32(P))
    assert got.dtype == np.float32
