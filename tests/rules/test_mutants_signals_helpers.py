"""Behaviour the mutation run (tools/mutate.py) found unpinned in
runtime/rules/signals_helpers.py: each test kills a mutant the other tests let through.
Cotangents are checked against central differences (tests/fd.py through check_rule and
check_grad) or exact values."""
import numpy as np
import pytest

import runtime
from tests.gradcheck import POLICIES, check_grad
from tests.rules.checks import check_rule, newer, rand

XP = np.array([-1.0, -0.2, 0.5, 1.3, 2.0])
FP = np.array([0.3, -0.7, 1.1, 0.4, 0.9])
TRAPEZOID = newer("trapezoid")


def _cotangents(fn, *args, g=1.0, **kwargs):
    _, pullback = runtime.lookup(fn).rrule(*args, **kwargs)
    return [runtime.unthunk(c) for c in pullback(g)]


# ---- np.interp ---------------------------------------------------------------------
@pytest.mark.parametrize("x", [np.array([-1.5, 0.25, 0.75, 1.2, 1.6]), 0.4, 2.5])
def test_interp_with_two_knots(x):
    """Two knots are enough (one segment): x, fp and the ends are differentiated,
    also beyond the last knot, where the segment index must stay 0."""
    check_rule(np.interp, [x, np.array([0.0, 1.0]), np.array([2.0, -1.0]), -4.0, 3.0],
               argnums=[0, 2, 3, 4])
    check_rule(np.interp, [x, np.array([0.0, 1.0]), np.array([2.0, -1.0])], argnums=[0, 2])


def test_interp_left_reads_every_x_before_the_first_knot_only():
    """x between the first two knots is interpolated, not `left`; x at the first knot
    reads fp[0], not `left` (np.interp is closed there)."""
    x = np.array([-1.5, -0.6, XP[0], 0.1, 2.5])
    check_rule(np.interp, [x, XP, FP, -3.0, 5.0], argnums=[2, 3, 4])    # x has a knot
    left, right = _cotangents(np.interp, x, XP, FP, -3.0, 5.0, g=np.arange(1.0, 6.0))[3:5]
    assert left == 1.0 and right == 5.0


@pytest.mark.parametrize("operand", [0, 2])
def test_interp_refuses_complex_values(operand):
    """fp complex: the real-valued slopes would be silently wrong."""
    fp = FP + 1j * np.arange(5.0)
    with pytest.raises(NotImplementedError, match="np.interp.*real"):
        _cotangents(np.interp, np.array([0.1, 0.7]), XP, fp, g=np.ones(2))[operand]


# ---- np.convolve and np.correlate ---------------------------------------------------
@pytest.mark.parametrize("fn", [np.convolve, np.correlate])
@pytest.mark.parametrize("mode", [0, 1, 2])
def test_convolutions_with_an_integer_mode(fn, mode):
    """NumPy reads mode 0, 1, 2 as valid, same, full."""
    check_rule(fn, [rand(5), rand(3, seed=1)], {"mode": mode})
    check_rule(fn, [rand(3, seed=2), rand(6, seed=3)], {"mode": mode})


@pytest.mark.parametrize("fn", [np.convolve, np.correlate])
def test_convolutions_refuse_complex_values_and_say_which(fn):
    a = rand(4) + 1j * rand(4, seed=5)
    with pytest.raises(NotImplementedError, match=f"{fn.__name__}'s rule takes real"):
        _cotangents(fn, a, rand(3, seed=1), g=np.ones(len(fn(a, rand(3, seed=1)))))


# ---- np.trapezoid -------------------------------------------------------------------
needs_trapezoid = pytest.mark.skipif(not hasattr(np, "trapezoid"), reason="NumPy 2.0+")


@needs_trapezoid
@pytest.mark.parametrize("axis", [1, 2, -2])
def test_trapezoid_along_a_positive_or_inner_axis(axis):
    y = rand(2, 3, 4)
    check_rule(np.trapezoid, [y], {"axis": axis})
    x = np.cumsum(rand(y.shape[axis], seed=3, low=0.1, high=1.0))
    check_rule(np.trapezoid, [y, x], {"axis": axis})


@needs_trapezoid
@pytest.mark.parametrize("shape", [(5,), (3, 4)])
def test_trapezoid_spacing_dx_is_differentiated(shape):
    check_rule(np.trapezoid, [rand(*shape), None, 0.3])


def trapezoid_of_squares(y, dx):
    return np.trapezoid(y ** 2, dx=dx) * 2.0


@needs_trapezoid
@pytest.mark.parametrize("policy", POLICIES)
def test_trapezoid_dx_in_compiled_code(policy):
    check_grad(trapezoid_of_squares, [rand(6), 0.25], policy=policy)
