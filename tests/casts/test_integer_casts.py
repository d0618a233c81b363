"""A differentiated value cast to an integer or bool type (`(v * 5.0).astype(int)`) and
used in arithmetic: its derivative through the cast is zero. grad crashed in the
backward sweep (`dt * 5.0` of cast_back's None, found by tests/fuzz/gen_breadth39.py's
_integer_cast in session 39's review); jvp cast the tangent (session 39, errs40)."""
import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad, numerical_jvp
from transform import grad, hvp, jvp

X = np.array([0.3, -0.7, 0.05])          # 5 x far from integers: differences are exact


def scaled_int(v):
    return np.sum(v * (v * 5.0).astype(int))


def scaled_int64(v):
    return np.sum(np.sin(v) * (v * 5.0).astype(np.int64))


def nonzero_mask(v):
    return np.sum(v ** 2 * (v * 1.0).astype(bool))


def scalar_cast(s):
    return s * float(np.float64(s * 5.0).astype(int))


@pytest.mark.parametrize("f", [scaled_int, scaled_int64, nonzero_mask])
def test_grad_and_jvp_through_an_integer_cast(f):
    assert_close(grad(f)(X), numerical_grad(f, [X], 0))
    t = np.array([1.0, -2.0, 0.5])
    assert_close(jvp(f, (X,), (t,))[1], numerical_jvp(f, (X,), 0, t))


@pytest.mark.parametrize("f", [scaled_int, nonzero_mask])
def test_hvp_through_an_integer_cast(f):
    t = np.array([1.0, -2.0, 0.5])
    want = numerical_jvp(grad(f), (X,), 0, t)
    for route in ("forward_over_reverse", "reverse_over_forward"):
        assert_close(hvp(f, (X,), (t,), route=route), want)


def test_a_scalars_cast():
    assert_close(grad(scalar_cast)(0.7), numerical_grad(scalar_cast, [0.7], 0))
