"""Elementwise rules against central differences, with broadcasting and scalars."""
import numpy as np
import pytest

import runtime
from tests.rules.checks import case, check_float32, check_rule, needs, rand

X, Y = rand(2, 3), rand(2, 3, seed=1)
POS, POS2 = rand(2, 3, low=0.5, high=2.0), rand(3, low=0.5, high=2.0, seed=2)
UNIT = rand(2, 3, low=-0.8, high=0.8)           # inside (-1, 1)
ROW, COL = rand(3, seed=3), rand(2, 1, seed=4)  # broadcast against (2, 3)
BIG = rand(2, 3, low=1.5, high=3.0)             # > 1 for arccosh

UNARY = [
    (np.negative, X), (np.positive, X), (np.reciprocal, POS), (np.square, X), (np.sqrt, POS),
    (np.cbrt, POS), (np.exp, X), (np.exp2, X), (np.expm1, X), (np.log, POS), (np.log2, POS),
    (np.log10, POS), (np.log1p, POS), (np.sin, X), (np.cos, X), (np.tan, X),
    (np.arcsin, UNIT), (np.arccos, UNIT), (np.arctan, X), (np.sinh, X), (np.cosh, X),
    (np.tanh, X), (np.arcsinh, X), (np.arccosh, BIG), (np.arctanh, UNIT), (np.deg2rad, X),
    (np.rad2deg, X), (np.degrees, X), (np.radians, X), (np.abs, X), (np.absolute, X),
    (np.fabs, X), (np.sinc, X), (np.real, X), (np.conj, X), (np.conjugate, X),
    (np.nan_to_num, X),
]
UNARY_CASES = [case(fn, x) for fn, x in UNARY] + [case(fn, x[0], id=f"{fn.__name__}-1d")
                                                   for fn, x in UNARY[:8]]

BINARY = [np.add, np.subtract, np.multiply, np.divide, np.true_divide, np.power,
          np.float_power, np.logaddexp, np.logaddexp2, np.arctan2, np.hypot, np.maximum,
          np.minimum, np.fmax, np.fmin, np.remainder, np.mod, np.fmod]
BINARY_CASES = [case(fn, a, b, id=f"{fn.__name__}-{label}")
                for fn in BINARY
                for label, a, b in [("same", POS, rand(2, 3, low=0.5, high=2.0, seed=5)),
                                    ("row", POS, POS2), ("col", rand(2, 1, low=0.5, high=2.0), POS),
                                    ("scalar", POS, 1.7), ("scalar-left", 0.7, POS)]]

OTHER_CASES = [
    case(np.clip, X, -0.5, 0.5),
    case(np.clip, X, rand(3, seed=9, low=-0.9, high=-0.1), 0.4, id="clip-array-bound"),
    case(np.clip, X, None, 0.3, id="clip-upper-only"),
    needs("2.1", case(np.clip, X, min=-0.3, max=0.2, id="clip-keywords"), "no min=, max="),
    case(np.where, X > 0, X, Y),
    case(np.where, ROW > 0, X, COL, id="where-broadcast"),
    case(np.where, X > 0, X, 0.5, id="where-scalar"),
    case(np.copysign, X, Y),
    case(np.sinc, np.array([0.0, 0.3, -1.2]), id="sinc-at-zero"),
    # kinks at 0: sign(0) = 0, and the central difference across a symmetric kink is 0 too
    case(np.abs, np.array([0.0, 1.5, -2.0]), id="abs-at-zero"),
    case(np.absolute, np.array([0.0, -0.5]), id="absolute-at-zero"),
    case(np.fabs, np.array([0.0, 0.7]), id="fabs-at-zero"),
]


@pytest.mark.parametrize("fn, args, kwargs", UNARY_CASES + BINARY_CASES + OTHER_CASES)
def test_matches_finite_differences(fn, args, kwargs):
    check_rule(fn, args, kwargs)


@pytest.mark.parametrize("fn, args, kwargs", UNARY_CASES + BINARY_CASES + OTHER_CASES)
def test_float32_stays_float32(fn, args, kwargs):
    check_float32(fn, args, kwargs)


def test_power_with_integer_exponent_and_zero_base():
    x = np.array([0.0, 1.5, -2.0])
    out, pb = runtime.lookup(np.power).rrule(x, 0)
    np.testing.assert_array_equal(runtime.unthunk(pb(np.ones(3))[0]), [0.0, 0.0, 0.0])
    check_rule(np.power, [rand(4), 3], argnums=[0], integers_none=False)


def test_ties_give_the_cotangent_to_one_side():
    x = np.array([1.0, 2.0, 3.0])
    out, pb = runtime.lookup(np.maximum).rrule(x, 2.0)
    gx, gy = (runtime.unthunk(c) for c in pb(np.ones(3)))
    np.testing.assert_array_equal(gx, [0.0, 1.0, 1.0])
    assert gy == 1.0


TIED = (np.array([0.5, 1.0, -2.0, 3.0]), np.array([0.5, 3.0, -2.0, -1.0]))   # ties at 0, 2


@pytest.mark.parametrize("fn", [np.maximum, np.minimum, np.fmax, np.fmin])
def test_ties_give_the_whole_cotangent_to_exactly_one_side(fn):
    """At x == y one side gets all of g (the derivative along x = y = t is 1), never both
    and never neither; elsewhere each side gets g where it is chosen."""
    x, y = TIED
    G = np.array([1.5, -2.0, 0.5, 3.0])
    out, pb = runtime.lookup(fn).rrule(x, y)
    gx, gy = (runtime.unthunk(c) for c in pb(G))
    np.testing.assert_array_equal(gx + gy, G)
    np.testing.assert_array_equal(gx * gy, 0.0)
    chosen_x = fn(x + 1e-3 * np.array([0, 1, 0, 1]), y) == x + 1e-3 * np.array([0, 1, 0, 1])
    np.testing.assert_array_equal(gx[[1, 3]], np.where(chosen_x, G, 0.0)[[1, 3]])


def test_clip_at_a_bound_gives_the_cotangent_to_one_side():
    a = np.array([-0.5, 0.0, 0.5])
    out, pb = runtime.lookup(np.clip).rrule(a, -0.5, 0.5)
    ga, glo, ghi = (runtime.unthunk(c) for c in pb(np.ones(3)))
    assert ga[1] == 1.0
    total = ga + np.asarray(glo if glo is not None else 0.0) \
        + np.asarray(ghi if ghi is not None else 0.0)
    assert np.sum(total) == pytest.approx(3.0)


def test_fmax_ignores_nan():
    x, y = np.array([1.0, np.nan]), np.array([np.nan, 2.0])
    out, pb = runtime.lookup(np.fmax).rrule(x, y)
    gx, gy = (runtime.unthunk(c) for c in pb(np.ones(2)))
    np.testing.assert_array_equal(gx, [1.0, 0.0])
    np.testing.assert_array_equal(gy, [0.0, 1.0])


def test_heaviside_value_at_zero_gets_the_cotangent_only_where_x1_is_zero():
    x1 = np.array([0.0, 0.5, -1.0, 0.0])          # the step itself has no derivative
    check_rule(np.heaviside, [x1, np.array([0.3, 0.7, 0.2, 0.9])], argnums=[1])
    check_rule(np.heaviside, [x1, 0.4], argnums=[1])
