"""np.linalg.cond (every p), np.linalg.tensorinv and np.linalg.tensorsolve
(runtime/rules/linalg_more.py) against central differences, float32, and from compiled
code under every policy."""
import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_grad
from tests.rules.checks import case, check_float32, check_rule, rand

M3 = rand(3, 3, seed=1) + 2 * np.eye(3)
M34, STACK = rand(3, 4, seed=2), rand(2, 3, 3, seed=3) + 2 * np.eye(3)
T4 = (rand(6, 6, seed=4) + 3 * np.eye(6)).reshape(2, 3, 2, 3)
A6 = (rand(6, 6, seed=5) + 3 * np.eye(6)).reshape(2, 3, 6)
B6 = rand(2, 3, seed=6)
A_AXES = np.moveaxis(A6, 2, 0)                     # tensorsolve(..., axes=(0,)) undoes this

CASES = [
    case(np.linalg.cond, M3), case(np.linalg.cond, M3, 2), case(np.linalg.cond, M3, -2),
    case(np.linalg.cond, M34), case(np.linalg.cond, M34.T, -2), case(np.linalg.cond, STACK),
    case(np.linalg.cond, M3, "fro"), case(np.linalg.cond, M3, 1), case(np.linalg.cond, M3, -1),
    case(np.linalg.cond, M3, p=np.inf), case(np.linalg.cond, STACK, "nuc"),
    case(np.linalg.tensorinv, rand(6, 2, 3, seed=7) + np.eye(6).reshape(6, 2, 3), 1),
    case(np.linalg.tensorinv, T4, 2),
    case(np.linalg.tensorsolve, A6, B6), case(np.linalg.tensorsolve, M3, rand(3, seed=8)),
]


@pytest.mark.parametrize("fn, args, kwargs", CASES)
def test_matches_finite_differences(fn, args, kwargs):
    check_rule(fn, args, kwargs)


@pytest.mark.parametrize("fn, args, kwargs", CASES)
def test_float32_stays_float32(fn, args, kwargs):
    check_float32(fn, args, kwargs)


def test_tensorsolve_with_axes():
    check_rule(np.linalg.tensorsolve, (A_AXES, B6), dict(axes=(0,)))


def conditioning(w, a):
    m = a + np.outer(w, w)
    x = np.linalg.tensorsolve(m.reshape(2, 2, 4), w.reshape(2, 2))
    return np.log(np.linalg.cond(m)) + np.linalg.cond(m, "fro") * 0.1 + np.sum(x ** 2) \
        + np.sum(np.linalg.tensorinv(m.reshape(2, 2, 4), 2) ** 2) * 0.01


@pytest.mark.parametrize("policy", POLICIES)
def test_conditioning_program(policy):
    check_grad(conditioning, [rand(4, seed=9), rand(4, 4, seed=10) + 3 * np.eye(4)],
               policy=policy)
