"""np.interp, np.convolve, np.correlate, np.trapezoid and np.gradient against
central differences; interp at its knots against one-sided differences."""
import numpy as np
import pytest

import runtime
from tests.gradcheck import POLICIES, check_grad
from tests.rules.checks import case, check_float32, check_rule, newer, rand

XP = np.array([-1.0, -0.2, 0.5, 1.3, 2.0])
FP = np.array([0.3, -0.7, 1.1, 0.4, 0.9])
BETWEEN = np.array([-0.6, 0.1, 0.9, 1.7, -0.45])            # inside, off the knots
OUTSIDE = np.array([-1.7, 0.3, 2.6, -1.2, 1.0])             # both ends and inside
A5, V3, V7 = rand(5), rand(3, seed=1), rand(7, seed=2)
Y34, X4 = rand(3, 4), np.array([0.0, 0.4, 1.1, 1.5])

INTERP = [
    case(np.interp, BETWEEN, XP, FP), case(np.interp, 0.7, XP, FP, id="interp-scalar"),
    case(np.interp, rand(2, 3, low=-0.9, high=1.9).round(3) + 1e-4, XP, FP, id="interp-2d"),
    case(np.interp, OUTSIDE, XP, FP), case(np.interp, OUTSIDE, XP, FP, left=-3.0, right=5.0),
    case(np.interp, OUTSIDE, XP, FP, right=2.5),
]
CONVOLUTIONS = [case(fn, a, v, mode=mode) for fn in (np.convolve, np.correlate)
                for a, v in ((A5, V3), (V3, A5), (A5, V7), (A5, A5[::-1] + 1), (V3[:1], A5))
                for mode in ("full", "same", "valid")]
CONVOLUTIONS += [case(np.convolve, A5, V3, id="convolve-default"),
                 case(np.correlate, A5, V3, id="correlate-default")]
TRAPEZOIDS = [case(fn, *args, **kw) for fn in (newer("trapezoid"), newer("trapz"))
              for args, kw in (((A5,), {}), ((A5, X4[:1].tolist() + [0.2, 0.5, 0.9, 1.4]), {}),
                               ((A5,), dict(dx=0.3)), ((Y34, X4), {}), ((Y34,), dict(axis=0)),
                               ((Y34, X4[:3]), dict(axis=0)), ((Y34, Y34.cumsum(1) * 0 +
                                                               np.cumsum(rand(3, 4, low=0.1, high=1),
                                                                         axis=1)), {}),
                               ((Y34, np.cumsum(rand(3, 4, seed=4, low=0.1, high=1), axis=0)),
                                dict(axis=0)))]
GRADIENTS = [
    case(np.gradient, A5), case(np.gradient, A5, 0.3), case(np.gradient, A5, edge_order=2),
    case(np.gradient, A5, np.array([0.0, 0.3, 0.7, 1.6, 2.0])),
    case(np.gradient, A5, np.array([0.0, 0.3, 0.7, 1.6, 2.0]), edge_order=2, id="gradient-coords-2"),
    case(np.gradient, rand(4, 5)), case(np.gradient, rand(4, 5), 0.5, 2.0),
    case(np.gradient, rand(4, 5), axis=1), case(np.gradient, rand(3, 4, 5), axis=(0, 2)),
    case(np.gradient, rand(6, 5), 0.7, edge_order=2),
    case(np.gradient, rand(6, 5), np.array([0.0, 0.5, 0.7, 1.4, 2.0, 2.2]), 1.5,
         edge_order=2, id="gradient-mixed"),
]
CASES = INTERP + CONVOLUTIONS + TRAPEZOIDS


@pytest.mark.parametrize("fn, args, kwargs", CASES)
def test_matches_finite_differences(fn, args, kwargs):
    check_rule(fn, args, kwargs, argnums=_differentiated(fn, args))


def _differentiated(fn, args):
    """interp: x and fp (xp has no rule); gradient: f and its scalar spacings."""
    if fn is np.interp:
        return [0, 2]
    if fn is np.gradient:
        return [k for k, a in enumerate(args) if k == 0 or np.ndim(a) == 0]
    return None


@pytest.mark.parametrize("fn, args, kwargs", CASES + GRADIENTS)
def test_float32_stays_float32(fn, args, kwargs):
    check_float32(fn, args, kwargs, argnums=_differentiated(fn, args))


@pytest.mark.parametrize("fn, args, kwargs", GRADIENTS)
def test_gradient_in_f_and_scalar_spacings(fn, args, kwargs):
    check_rule(fn, args, kwargs, argnums=_differentiated(fn, args))


def test_gradient_refuses_a_coordinate_spacing_when_differentiated():
    _, pullback = runtime.lookup(np.gradient).rrule(A5, np.array([0.0, 0.3, 0.7, 1.6, 2.0]))
    with pytest.raises(NotImplementedError, match="coordinate"):
        runtime.unthunk(pullback(np.ones(5))[1])


def test_gradient_integer_spacing_gets_none():
    _, pullback = runtime.lookup(np.gradient).rrule(A5, 2)
    assert pullback(np.ones(5))[1] is None


def test_interp_left_and_right_values():
    check_rule(np.interp, [OUTSIDE, XP, FP, -3.0, 5.0], argnums=[0, 2, 3, 4])


# ---- interp at its knots: the right-hand slope, 0 at the last knot ------------------
def _interp_x_cotangent(x, **kw):
    _, pullback = runtime.lookup(np.interp).rrule(x, XP, FP, **kw)
    return runtime.unthunk(pullback(np.ones(np.shape(x)))[0])


def _right_difference(x, h=1e-7, **kw):
    return (np.interp(x + h, XP, FP, **kw) - np.interp(x, XP, FP, **kw)) / h


@pytest.mark.parametrize("knot", range(len(XP)))
def test_interp_slope_at_a_knot_is_the_right_hand_one(knot):
    x = XP[knot]
    got = _interp_x_cotangent(x)
    np.testing.assert_allclose(got, _right_difference(x), rtol=1e-5, atol=1e-7)
    if knot == len(XP) - 1:
        assert got == 0.0                    # np.interp is constant from the last knot on


def test_interp_slope_outside_the_knots_is_zero():
    np.testing.assert_array_equal(_interp_x_cotangent(np.array([-5.0, 3.0])), [0.0, 0.0])


def test_interp_fp_at_knots_and_repeated_x():
    x = np.array([XP[0], XP[2], XP[2], XP[-1], 0.1])          # knots, a repeated x
    check_rule(np.interp, [x, XP, FP], argnums=[2])
    check_rule(np.interp, [x, XP, FP], {"right": 7.0}, argnums=[2])


def test_interp_last_knot_reads_fp_not_right():
    _, pullback = runtime.lookup(np.interp).rrule(XP[-1], XP, FP, None, 9.0)
    assert runtime.unthunk(pullback(1.0)[4]) == 0.0
    assert runtime.unthunk(pullback(1.0)[2])[-1] == 1.0


@pytest.mark.parametrize("bad, message", [
    (dict(xp=XP[::-1]), "increasing"), (dict(xp=np.array([0.0, 0.0, 1.0, 2.0, 3.0])), "increasing"),
    (dict(period=3.0), "period")])
def test_interp_refusals(bad, message):
    args = {"xp": XP, "fp": FP, **bad}
    _, pullback = runtime.lookup(np.interp).rrule(BETWEEN, **args)
    with pytest.raises(NotImplementedError, match=message):
        runtime.unthunk(pullback(np.ones(5))[0])


@pytest.mark.parametrize("m", range(1, 8))
@pytest.mark.parametrize("n", range(1, 8))
def test_convolution_windows_for_every_length_pair(m, n):
    for fn in (np.convolve, np.correlate):
        for mode in ("same", "valid"):
            check_rule(fn, [rand(m, seed=m), rand(n, seed=10 + n)], {"mode": mode})


# ---- in compiled code ------------------------------------------------------------
def signal_loss(x, fp, kernel):
    smooth = np.convolve(np.interp(x, XP, fp), kernel, mode="same")
    return np.trapezoid(smooth ** 2, dx=0.1) + np.sum(np.correlate(smooth, kernel) ** 2)


def gradient_loss(f, h):
    rows, cols = np.gradient(f * f)
    return np.sum(np.gradient(f, h, axis=1, edge_order=2) ** 2) + np.sum(rows * cols)


@pytest.mark.skipif(not hasattr(np, "trapezoid"), reason="np.trapezoid is NumPy 2.0+")
@pytest.mark.parametrize("policy", POLICIES)
def test_signal_program(policy):
    check_grad(signal_loss, [BETWEEN, FP, V3], policy=policy)


@pytest.mark.parametrize("policy", POLICIES)
def test_gradient_program(policy):
    check_grad(gradient_loss, [rand(4, 6), 0.4], policy=policy)


@pytest.mark.parametrize("fn", [np.convolve])     # np.correlate refuses numbers itself
@pytest.mark.parametrize("mode", ["full", "same", "valid"])
def test_a_number_operand_is_one_entry(fn, mode):
    """np.convolve(a, 1.5): NumPy takes the number as a 1-entry array (the rule crashed
    on len() of it); both operands' cotangents keep their own shapes."""
    a = np.array([0.5, -1.0, 2.0])
    check_rule(fn, (a, 1.5), {"mode": mode})
    check_rule(fn, (1.5, a), {"mode": mode})
