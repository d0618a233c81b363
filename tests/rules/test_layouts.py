"""np.rollaxis, np.row_stack, np.meshgrid, np.frexp, np.modf, np.ldexp, np.angle and
np.real_if_close against central differences."""
import warnings

import numpy as np
import pytest

import runtime
from tests.gradcheck import POLICIES, check_grad
from tests.rules.checks import case, check_float32, check_rule, newer, rand

T234, V3, V4 = rand(2, 3, 4), rand(3, seed=1), rand(4, seed=2)
# away from powers of two and integers, where frexp's mantissa and modf's parts step
AWAY = np.array([0.3, -1.7, 2.6, 5.4, -0.15, 12.9])
INTS = np.array([1, -2, 3, 0, 2, 5])

CASES = [
    case(np.rollaxis, T234, 2), case(np.rollaxis, T234, 0, 3), case(np.rollaxis, T234, 1, 1),
    case(np.rollaxis, T234, -1, 1), case(np.rollaxis, T234, 0, -1), case(np.rollaxis, T234, 2, 0),
    case(np.frexp, AWAY), case(np.frexp, rand(2, 3, low=0.1, high=0.45)),
    case(np.modf, AWAY), case(np.modf, rand(2, 3, low=0.1, high=0.9)),
    case(np.ldexp, AWAY, INTS), case(np.ldexp, AWAY[:1], INTS, id="ldexp-broadcast"),
    case(np.ldexp, rand(2, 1), INTS), case(np.ldexp, 1.5, 3, id="ldexp-scalars"),
    case(np.angle, AWAY), case(np.angle, AWAY, deg=True), case(np.angle, 2.5, id="angle-scalar"),
    case(np.real_if_close, AWAY), case(np.real_if_close, T234, tol=1000),
]
MESHES = [((V3, V4), {}), ((V3, V4), dict(indexing="ij")), ((V3, V4, rand(2, seed=3)), {}),
          ((V3, V4, rand(2, seed=3)), dict(indexing="ij", sparse=True)),
          ((V3,), {}), ((V3, rand(2, 2, seed=4)), dict(copy=False)),
          ((V3, V4), dict(sparse=True))]


@pytest.mark.parametrize("fn, args, kwargs", CASES)
def test_matches_finite_differences(fn, args, kwargs):
    check_rule(fn, args, kwargs)


@pytest.mark.parametrize("fn, args, kwargs", CASES)
def test_float32_stays_float32(fn, args, kwargs):
    check_float32(fn, args, kwargs)


@pytest.mark.parametrize("args, kwargs", MESHES)
def test_meshgrid(args, kwargs):
    check_rule(np.meshgrid, args, kwargs)
    check_float32(np.meshgrid, args, kwargs)


def test_meshgrid_part_without_cotangent():
    check_rule(np.meshgrid, [V3, V4], G=(None, rand(3, 4, seed=5).T))


def test_row_stack():
    row_stack = newer("row_stack")
    if not callable(row_stack) or row_stack is np.vstack:
        pytest.skip("np.row_stack is np.vstack or absent in this NumPy")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        check_rule(row_stack, [[V3, rand(2, 3, seed=6)]])
        check_float32(row_stack, [[V3, rand(2, 3, seed=6)]])


@pytest.mark.parametrize("fn", [np.real_if_close])   # np.angle of complex: test_complex_parts
def test_complex_input_is_refused(fn):
    z = np.array([1.0 + 1e-20j, -2.0 + 0j])
    out, pullback = runtime.lookup(fn).rrule(z)
    with pytest.raises(NotImplementedError, match="real input"):
        runtime.unthunk(pullback(np.ones(out.shape))[0])


def test_integer_parts_get_no_derivative():
    check_rule(np.modf, [AWAY], G=(None, rand(6, seed=7)))
    check_rule(np.frexp, [AWAY], G=(rand(6, seed=8), None))


def grid_loss(x, y):
    X, Y = np.meshgrid(x, y)
    m, e = np.frexp(X * Y + 3.0)
    frac, _ = np.modf(np.rollaxis(np.stack([X, Y]), 0, 3) * 1.3)
    return np.sum(m ** 2) + np.sum(frac[..., 0] * np.ldexp(X, 2)) + np.sum(np.real_if_close(Y) ** 2)


@pytest.mark.parametrize("policy", POLICIES)
def test_grid_program(policy):
    check_grad(grid_loss, [np.array([0.31, 0.47, 0.12]), np.array([0.23, 0.61])], policy=policy)
