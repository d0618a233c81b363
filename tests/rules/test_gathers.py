"""np.delete, np.insert, np.compress, np.extract, np.resize, np.diagflat, np.block,
np.ediff1d and np.broadcast_arrays (runtime/rules/gathers.py) against central
differences in every float argument, float32, and through compiled programs under
every policy."""
import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_grad
from tests.rules.checks import case, check_float32, check_rule, rand

M34, V5, T234 = rand(3, 4), rand(5, seed=1), rand(2, 3, 4, seed=2)
R4, C3, S = rand(4, seed=3), rand(3, 1, seed=4), rand(2, 2, seed=5)

CASES = [
    case(np.delete, V5, 1), case(np.delete, M34, 1, axis=1), case(np.delete, M34, [0, 2], 0),
    case(np.delete, M34, slice(1, 3), None, id="delete-slice-flat"),
    case(np.delete, T234, np.array([True, False, True, False]), -1, id="delete-mask"),
    case(np.insert, V5, 2, 1.5), case(np.insert, V5, [1, 3], R4[:2], id="insert-two"),
    case(np.insert, M34, 1, R4, axis=0), case(np.insert, M34, 2, 0.7, axis=1, id="insert-fill"),
    case(np.insert, M34, [1, 1], C3[:2, 0], axis=None, id="insert-flat-repeat"),
    case(np.insert, M34, 1, C3, axis=1, id="insert-column"),
    case(np.compress, [True, False, True], M34, 0), case(np.compress, [False, True], V5),
    case(np.compress, np.array([1, 0, 1, 1]), T234, axis=2, id="compress-axis"),
    case(np.extract, M34 > 0, M34), case(np.extract, np.arange(5) % 2, V5, id="extract-int"),
    case(np.resize, V5, (3, 4)), case(np.resize, M34, 5), case(np.resize, S, (2, 2)),
    case(np.diagflat, V5), case(np.diagflat, S, 1), case(np.diagflat, R4, -2),
    case(np.block, [M34, C3]), case(np.block, [V5, 1.5], id="block-scalar"),
    case(np.ediff1d, M34), case(np.ediff1d, V5, R4[:2], 0.5), case(np.ediff1d, V5, None, S),
    case(np.ediff1d, V5, to_end=1.5),
    case(np.choose, np.array([0, 2, 1, 1]), [R4, 2 * R4, V5[:4]]),
    case(np.choose, np.array([[0, 1, 1, 0], [1, 0, 0, 1], [1, 1, 0, 0]]), [M34, R4], id="choose-bc"),
    case(np.choose, np.array([0, 3, -1, 1]), np.stack([R4, V5[:4], -R4]), mode="wrap"),
    case(np.choose, np.array([0, 3, -1, 1]), (R4, 0.5), mode="clip", id="choose-clip"),
    case(np.bincount, np.array([0, 2, 2, 1, 5]), V5), case(np.bincount, np.array([1, 1, 0]),
                                                           V5[:3], 4, id="bincount-minlength"),
    case(np.unwrap, np.array([0.1, 3.0, 6.5, 9.9, -0.4])), case(np.unwrap, 3 * M34, None, 0),
    case(np.unwrap, 3 * M34, 4.0, -1, id="unwrap-discont"),
    case(np.asarray_chkfinite, M34), case(np.require, M34),
    case(np.require, M34.T, None, ["C", "W"]),   # (a dtype= cast to float32 rounds: not here)
]


@pytest.mark.parametrize("fn, args, kwargs", CASES)
def test_matches_finite_differences(fn, args, kwargs):
    check_rule(fn, args, kwargs)


@pytest.mark.parametrize("fn, args, kwargs", CASES)
def test_float32_stays_float32(fn, args, kwargs):
    check_float32(fn, args, kwargs)


@pytest.mark.parametrize("args", [(M34, R4), (C3, R4, 0.5), (V5,), (S, S[0], S[:, :1])])
def test_broadcast_arrays(args):
    check_rule(np.broadcast_arrays, args)
    check_float32(np.broadcast_arrays, args)


def test_broadcast_arrays_part_without_cotangent():
    check_rule(np.broadcast_arrays, [C3, R4], G=(None, rand(3, 4, seed=6)))


def periodic(p, period):
    return np.sum(np.unwrap(p * 4.0, period=period) ** 2)


@pytest.mark.parametrize("policy", POLICIES)
def test_unwrap_in_its_period(policy):
    check_grad(periodic, [V5, 2.5], policy=policy)


def tiles(x, w):
    """np.block of nested lists (checks.py perturbs one level of nesting, so nested
    blocks are checked here, compiled)."""
    corner = x[:2, :2]
    board = np.block([[corner, corner * w[0]], [w.reshape(2, 2), corner.T]])
    rows = np.block([[x], [w]])
    return np.sum(board ** 2) + np.sum(rows * np.arange(4.0))


@pytest.mark.parametrize("policy", POLICIES)
def test_nested_blocks(policy):
    check_grad(tiles, [M34, rand(4, seed=8)], policy=policy)


def edit(x, w):
    kept = np.delete(x, [0, 3], axis=1)
    grown = np.insert(kept, 1, w[:3] * 2.0, axis=1)
    board = np.block([[grown, np.diagflat(w[:3])], [np.resize(w, (2, 3)), np.ones((2, 3))]])
    picked = np.compress([True, False, True, True, False], board, axis=0)
    steps = np.ediff1d(np.extract(picked > 0, picked), to_begin=w[0])
    wide, tall = np.broadcast_arrays(w[:3, None], x[:, :2].T[:1])
    return np.sum(picked ** 2) + np.sum(steps * np.arange(steps.size)) + np.sum(wide * tall)


@pytest.mark.parametrize("policy", POLICIES)
def test_editing_program(policy):
    check_grad(edit, [M34, rand(4, seed=7)], policy=policy)
