"""Behaviour the mutation run (tools/mutate.py) found unpinned in
runtime/rules/polynomials_helpers.py: each test kills a mutant the other tests let
through (exact values and central differences)."""
import numpy as np
import pytest

import runtime
from tests.gradcheck import POLICIES, check_grad


def _cotangents(fn, *args, g=1.0):
    _, pullback = runtime.lookup(fn).rrule(*args)
    return [runtime.unthunk(c) for c in pullback(g)]


def test_polyval_at_an_integer_x_does_not_overflow():
    """The powers of an integer x are taken in float64: 3 ** 41 overflows int64."""
    p = np.linspace(-1.0, 1.0, 42)
    cot_p = _cotangents(np.polyval, p, 3)[0]
    np.testing.assert_allclose(cot_p, 3.0 ** np.arange(41, -1, -1), rtol=1e-15)


def test_polyval_at_zero_raises_no_floating_point_error():
    """The coefficients' cotangent at x = 0 takes only powers 0 .. n-1 (a power -1
    would divide by zero): under np.errstate(all="raise") it still runs."""
    p = np.array([2.0, -1.0, 0.5])
    with np.errstate(all="raise"):
        cot_p, cot_x = _cotangents(np.polyval, p, np.array([0.0, 1.5]), g=np.ones(2))
    np.testing.assert_array_equal(cot_p, [0.0 + 2.25, 0.0 + 1.5, 2.0])
    np.testing.assert_array_equal(cot_x, [-1.0, 2 * 2.0 * 1.5 - 1.0])


def polynomial_loss(p, x):
    return np.sum(np.polyval(p, x) ** 2)


@pytest.mark.parametrize("policy", POLICIES)
def test_polyval_at_zero_in_compiled_code(policy):
    with np.errstate(divide="raise", invalid="raise"):
        check_grad(polynomial_loss, [np.array([0.5, -1.0, 2.0]), np.array([0.0, 0.7])],
                   policy=policy)

