"""A rule's cotangent that tests `a == 0` is right at the point but not as a function:
forward mode over it (hvp forward over reverse, hessian) differentiated the branch taken
at the point only. np.cumprod's cotangent set the entries after a zero to 0, so their
tangent in the zero's direction was lost (red41: H v's entries 2.. were 0 against
differences of grad -0.277...); cumprod_vjp now uses the products' reverse recurrence
when the line has a zero (runtime/rules/reductions_helpers.py). H v against central
finite differences of grad (tests/fd.py, float64) on every route, with one zero, two
zeros and none."""
import numpy as np
import pytest

from tests.fd import assert_close, numerical_jvp
from tests.gradcheck import rng
from transform import grad, hessian, hvp

ROUTES = ("forward_over_reverse", "reverse_over_forward", "auto")


def cumprod_flat(x):
    return np.sum(np.cumprod(x) * np.arange(1, 7))


def cumprod_axes(x):
    return np.sum(np.cumprod(x.reshape(2, 3), axis=1) ** 2) + np.sum(x.reshape(3, 2).cumprod(axis=0))


def accumulate_and_nan(x):
    y = np.where(np.arange(6) == 4, np.nan, x)
    return np.sum(np.multiply.accumulate(x.reshape(3, 2)) ** 2) + np.sum(np.nancumprod(y) ** 2)


POINTS = {"one zero": [0.7, 0.0, 1.2, 0.3, -0.9, 0.5], "two zeros": [0.7, 0.0, 1.2, 0.0, -0.9, 0.5],
          "no zero": [0.7, 0.2, 1.2, 0.3, -0.9, 0.5]}
CASES = [(f, p) for f in (cumprod_flat, cumprod_axes, accumulate_and_nan) for p in POINTS]


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize("f, point", CASES, ids=[f"{f.__name__}-{p}" for f, p in CASES])
def test_hvp_through_cumprod_at_zeros(f, point, route):
    x = np.array(POINTS[point])
    v = rng("hvp_fr_zeros", f.__name__, point).normal(size=6)
    want = numerical_jvp(grad(f), (x,), 0, v)
    assert_close(hvp(f, (x,), (v,), route=route), want, 1e-5, 1e-6, f"hvp {route}")


def test_hessian_through_cumprod_at_a_zero():
    x = np.array(POINTS["one zero"])
    g = grad(cumprod_flat)
    want = np.stack([numerical_jvp(g, (x,), 0, e) for e in np.eye(6)], axis=1)
    assert_close(hessian(cumprod_flat, route="forward_over_reverse")(x), want, 1e-5, 1e-6)
