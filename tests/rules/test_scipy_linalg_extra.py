"""scipy.linalg's structured matrices, matrix equations, norm and svdvals
(runtime/rules/scipy_linalg_extra.py) against central differences in every float
argument, float32, and from compiled code under every policy."""
import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_grad
from tests.rules.checks import case, check_float32, check_rule, rand

sl = pytest.importorskip("scipy.linalg")

V3, V4, M22 = rand(3, seed=1), rand(4, seed=2), rand(2, 2, seed=3)
M34 = rand(3, 4, seed=4)
# stable (eigenvalues in the left half plane) and Schur-stable (spectral radius < 1)
STABLE = -3 * np.eye(3) + 0.5 * rand(3, 3, seed=5)
SMALL = 0.3 * rand(3, 3, seed=6)
Q = rand(3, 3, seed=7)
B2 = 2 * np.eye(2) + 0.3 * rand(2, 2, seed=8)
Q32 = rand(3, 2, seed=9)

CASES = [
    case(sl.toeplitz, V3), case(sl.toeplitz, V3, V4), case(sl.toeplitz, V4, V3[:1]),
    case(sl.hankel, V3), case(sl.hankel, V3, V4), case(sl.circulant, V4),
    case(sl.solve_sylvester, STABLE, B2, Q32), case(sl.solve_sylvester, SMALL + np.eye(3), Q, Q),
    case(sl.solve_continuous_lyapunov, STABLE, Q), case(sl.solve_continuous_lyapunov, STABLE,
                                                        Q + Q.T, id="lyapunov-symmetric"),
    case(sl.solve_discrete_lyapunov, SMALL, Q), case(sl.solve_discrete_lyapunov, SMALL, Q,
                                                     "bilinear", id="discrete-bilinear"),
    case(sl.norm, M34), case(sl.norm, V4, 1), case(sl.norm, M34, "fro"), case(sl.norm, M34, 2),
    case(sl.norm, M34, ord=np.inf, axis=1, id="norm-inf-axis"), case(sl.norm, M34, None, 0, True),
    case(sl.svdvals, M34), case(sl.svdvals, M34.T),
]


@pytest.mark.parametrize("fn, args, kwargs", CASES)
def test_matches_finite_differences(fn, args, kwargs):
    check_rule(fn, args, kwargs)


@pytest.mark.parametrize("fn, args, kwargs", CASES)
def test_float32_stays_float32(fn, args, kwargs):
    check_float32(fn, args, kwargs)


@pytest.mark.parametrize("args", [(M22, V3), (V3, 1.5, M34), (M22,), (M22, V4[None, :])])
def test_block_diag(args):
    check_rule(sl.block_diag, args)
    check_float32(sl.block_diag, args)


def controller_cost(k, a, q):
    """A closed-loop Lyapunov cost: trace(P) with (A - K) P + P (A - K)^T = -Q."""
    p = sl.solve_continuous_lyapunov(a - k, -q)
    return np.trace(p) + np.sum(sl.solve_sylvester(a, a.T - 4 * np.eye(3), q) ** 2)


def structured(c, r):
    t = sl.toeplitz(c, r) @ sl.hankel(r, c)[:, :3]
    block = sl.block_diag(t, c[:2], 0.5 * r[0])
    return np.sum(block ** 2) + sl.norm(sl.circulant(c), 2) + np.sum(sl.svdvals(t))


@pytest.mark.parametrize("policy", POLICIES)
def test_controller_program(policy):
    check_grad(controller_cost, [0.2 * rand(3, 3, seed=10), STABLE, Q @ Q.T], policy=policy)


@pytest.mark.parametrize("policy", POLICIES)
def test_structured_program(policy):
    check_grad(structured, [V3, V4[:3] + 1.0], policy=policy)


# scipy.linalg.eigh(a, b): a generalized problem with b not differentiated. Before session
# 29, eigvals_only=True ignored b (the cotangent was the standard problem's: a silent wrong
# gradient, off by 1.8 here); the eigenvectors' rule was right (b-orthonormal V).
GEN_B = rand(3, 3, seed=12) @ rand(3, 3, seed=12).T + 3 * np.eye(3)
WEIGHTS = np.array([1.0, 2.0, 3.0])


def generalized_values(a):
    s = (a + a.T) / 2
    return np.sum(WEIGHTS * sl.eigh(s, GEN_B, eigvals_only=True))


def generalized_upper_values(a):
    s = (a + a.T) / 2
    return np.sum(WEIGHTS * sl.eigh(s, GEN_B, lower=False, eigvals_only=True) ** 2)


def generalized_vectors(a):
    w, v = sl.eigh((a + a.T) / 2, GEN_B)
    return np.sum(WEIGHTS * w) + np.sum((v * v) @ WEIGHTS)      # sign-free in v


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn", [generalized_values, generalized_upper_values,
                                generalized_vectors])
def test_generalized_eigh_with_a_fixed_b(fn, policy):
    check_grad(fn, [rand(3, 3, seed=13)], policy=policy)
