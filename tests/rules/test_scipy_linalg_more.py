"""scipy.linalg lu_factor/lu_solve, sqrtm, logm and solve's assume_a kinds against central
differences (entry by entry: each kind's cotangent lives on the part of `a` SciPy reads),
in user programs through the (lu, piv) and (c, lower) tuples; the refusals."""
import numpy as np
import pytest

from tests.gradcheck import POLICIES

sl = pytest.importorskip("scipy.linalg")

from tests.fd import assert_close, numerical_grad  # noqa: E402
from tests.rules.checks import check_float32, check_rule, rand, spd  # noqa: E402
from transform import grad  # noqa: E402

M = rand(4, 4, seed=1) + 4 * np.eye(4)
B = rand(4, 2, seed=2)
NONSYMMETRIC = rand(4, 4, seed=3) + 3 * np.eye(4)      # real spectrum off the negative axis
MATRICES = {"general": M, "lower": np.tril(M), "upper": np.triu(M), "symmetric": M + M.T,
            "diagonal": np.diag(np.diag(M)), "tridiagonal": np.triu(np.tril(M, 1), -1)}
KINDS = [None, "gen", "banded", "sym", "her", "pos", "diagonal", "tridiagonal",
         "lower triangular", "upper triangular"]


@pytest.mark.parametrize("b", [B, B[:, 0]], ids=["matrix", "vector"])
@pytest.mark.parametrize("lower", [False, True])
@pytest.mark.parametrize("transposed", [False, True])
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("matrix", MATRICES)
def test_solve_reads_what_scipy_reads(matrix, kind, transposed, lower, b):
    a = MATRICES[matrix]
    if kind == "pos" and matrix not in ("symmetric", "diagonal"):
        a = spd(4, seed=4)                 # one triangle of it must be positive definite
    check_rule(sl.solve, [a, b], {"assume_a": kind, "transposed": transposed, "lower": lower})


@pytest.mark.parametrize("kind", ["sym", "lower triangular", "diagonal"])
def test_solve_float32(kind):
    check_float32(sl.solve, [spd(3, seed=5), rand(3, 2, seed=6)], {"assume_a": kind})


@pytest.mark.parametrize("a", [M, NONSYMMETRIC], ids=["diagonally-dominant", "pivoting"])
def test_lu_factor(a):
    check_rule(sl.lu_factor, [a])


@pytest.mark.parametrize("trans", [0, 1])
@pytest.mark.parametrize("b", [B, B[:, 0]], ids=["matrix", "vector"])
def test_lu_solve_in_the_right_hand_side(b, trans):
    check_rule(sl.lu_solve, [sl.lu_factor(NONSYMMETRIC), b], {"trans": trans}, argnums=[1])


def test_lu_float32():
    check_float32(sl.lu_factor, [M.astype(np.float32)])


@pytest.mark.parametrize("fn", [sl.sqrtm, sl.logm])
@pytest.mark.parametrize("a", [spd(4, seed=7), NONSYMMETRIC, np.diag([0.5, 2.0, 3.0]),
                               np.array([[0.0, 1.0], [-1.0, 0.0]])],
                         ids=["spd", "nonsymmetric", "diagonal", "rotation"])
def test_matrix_functions(fn, a):
    check_rule(fn, [a], rtol=1e-5, atol=1e-7)


def lu_program(a, b):
    lu, piv = sl.lu_factor(a)
    return np.sum(np.sin(sl.lu_solve((lu, piv), b))) + np.sum(lu ** 2)


def lu_program_transposed(a, b):
    factors = sl.lu_factor(a * 2.0)
    return np.sum(np.cos(sl.lu_solve(factors, b, trans=1)))


def sqrtm_program(a):
    root = sl.sqrtm(a @ a.T + np.eye(3))
    return np.sum(root * np.arange(9.0).reshape(3, 3))


def logm_program(a):
    return np.trace(sl.logm(a) @ a)


def symmetric_solve(a, b):
    return np.sum(np.sin(sl.solve(a, b, assume_a="pos", lower=True)))


PROGRAMS = [(lu_program, (NONSYMMETRIC, B), (0, 1)),
            (lu_program_transposed, (NONSYMMETRIC, B[:, 0]), (0, 1)),
            (sqrtm_program, (rand(3, 3, seed=8),), (0,)),
            (logm_program, (NONSYMMETRIC,), (0,)),
            (symmetric_solve, (spd(4, seed=9), B), (0, 1))]


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn,args,wrts", PROGRAMS, ids=lambda v: getattr(v, "__name__", ""))
def test_user_programs(fn, args, wrts, policy):
    for wrt in wrts:
        assert_close(grad(fn, wrt=wrt, policy=policy)(*args), numerical_grad(fn, args, wrt),
                     rtol=1e-5, atol=1e-8)


def matrix_function_sum(a):
    return np.sum(np.real(sl.sqrtm(a))) + np.sum(np.real(sl.logm(a)))


@pytest.mark.parametrize("a,why", [
    (np.array([[1.0, 2.0], [0.5, -3.0]]), "real results only"),     # a negative eigenvalue
    (np.array([[-1.0, 0.2], [0.0, -2.0]]), "real results only"),    # both negative
])
def test_a_complex_result_is_refused(a, why):
    with pytest.raises(ValueError, match=why):
        grad(matrix_function_sum)(a)


def root(a):
    return np.sum(sl.sqrtm(a))


def test_sqrtm_at_a_singular_matrix_is_refused():
    with pytest.raises(ValueError, match="singular"):
        grad(root)(np.diag([0.0, 1.0]))


def test_sqrtm_float32():
    check_float32(sl.sqrtm, [spd(3, seed=10)])


def test_lu_solve_float32():
    a = M.astype(np.float32)
    check_float32(sl.lu_solve, [sl.lu_factor(a), B.astype(np.float32)], argnums=[1])
