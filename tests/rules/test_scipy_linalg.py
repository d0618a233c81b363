"""scipy.linalg rules against central differences, in user programs (a Gaussian-process
likelihood through cho_factor/cho_solve and through cholesky + solve_triangular), and
the NumPy Cholesky rule using SciPy's triangular solve."""
import numpy as np
import pytest

from tests.gradcheck import POLICIES

sl = pytest.importorskip("scipy.linalg")

from tests.fd import assert_close, numerical_grad  # noqa: E402
from transform import grad  # noqa: E402

RNG = np.random.default_rng(11)
M = RNG.normal(size=(4, 4))
SPD = M @ M.T + 4 * np.eye(4)
B = RNG.normal(size=(4, 2))
V = RNG.normal(size=4)


def inv_loss(a):
    return np.sum(sl.inv(a) * np.arange(16.0).reshape(4, 4))


def det_loss(a):
    return sl.det(a)


def solve_loss(a, b):
    return np.sum(np.sin(sl.solve(a, b)))


def triangular_loss(a, b):
    return np.sum(sl.solve_triangular(a, b, lower=True) ** 2)


def triangular_transposed_loss(a, b):
    return np.sum(np.cos(sl.solve_triangular(a, b, trans=1, lower=False)))


def unit_triangular_loss(a, b):
    return np.sum(sl.solve_triangular(a, b, lower=True, unit_diagonal=True) ** 2)


def cholesky_upper_loss(a):
    return np.sum(np.tril(np.ones((4, 4))).T * sl.cholesky(a))


def gp_nll_cho(K, y):
    c = sl.cho_factor(K, lower=True)
    alpha = sl.cho_solve(c, y)
    return 0.5 * y @ alpha + np.sum(np.log(np.diag(c[0])))


def gp_nll_triangular(K, y):
    L = sl.cholesky(K, lower=True)
    z = sl.solve_triangular(L, y, lower=True)
    return 0.5 * z @ z + np.sum(np.log(np.diag(L)))


def gp_nll_numpy(K, y):
    L = np.linalg.cholesky(K)
    return np.sum(np.log(np.diag(L))) + 0.5 * y @ np.linalg.solve(K, y)


def expm_loss(a):
    return np.sum(sl.expm(0.3 * a) * np.arange(16.0).reshape(4, 4))


def symmetric(f):
    """f of a symmetric matrix built from its argument: finite differences of a
    Cholesky-based function only make sense along symmetric directions."""
    return lambda a, *rest: f((a + a.T) / 2, *rest)


CASES = [(inv_loss, (SPD,), (0,)), (det_loss, (M,), (0,)), (solve_loss, (M, B), (0, 1)),
         (solve_loss, (M, V), (0, 1)), (triangular_loss, (np.tril(SPD), B), (0, 1)),
         (triangular_transposed_loss, (np.triu(SPD), V), (0, 1)),
         (unit_triangular_loss, (np.tril(M), B), (0, 1)), (expm_loss, (M,), (0,))]


@pytest.mark.parametrize("fn,args,wrts", CASES, ids=lambda v: getattr(v, "__name__", ""))
def test_rules_in_user_code(fn, args, wrts):
    for wrt in wrts:
        assert_close(grad(fn, wrt=wrt)(*args), numerical_grad(fn, args, wrt), rtol=1e-5)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn", [gp_nll_cho, gp_nll_triangular, gp_nll_numpy, cholesky_upper_loss])
def test_cholesky_based_losses(fn, policy):
    wrapped = symmetric(fn)
    args = (SPD, V) if fn is not cholesky_upper_loss else (SPD,)
    expected = numerical_grad(wrapped, args, 0)
    got = grad(fn, policy=policy)(*args)
    assert_close((got + got.T) / 2, expected, rtol=1e-5)       # along symmetric directions
    if len(args) > 1:
        assert_close(grad(fn, wrt=1, policy=policy)(*args), numerical_grad(fn, args, 1))


def symmetric_solve(a, b):
    return np.sum(sl.solve(a, b, assume_a="pos"))


def test_symmetric_solve_reads_one_triangle():
    # (was refused; tests/rules/test_scipy_linalg_more.py covers every assume_a kind)
    assert_close(grad(symmetric_solve)(SPD, V), numerical_grad(symmetric_solve, (SPD, V), 0),
                 rtol=1e-5)
    assert np.all(np.tril(grad(symmetric_solve)(SPD, V), -1) == 0)   # the lower is not read
