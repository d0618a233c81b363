"""runtime/rules/triangular_helpers.py (session 31, issue 19): the Cholesky rule with one
LAPACK trtri and three BLAS trmm, the triangular solve of a Cholesky factor, and the
conditions under which each takes the SciPy path (else None, and the NumPy path).
Each is compared with the NumPy path it replaces, computed with SciPy hidden."""
import sys

import numpy as np
import pytest

from runtime import registry
from runtime.rules import decompositions_helpers as dh
from runtime.rules.decompositions_helpers import cholesky_vjp, solve_transposed, solve_vjp
from runtime.rules.triangular_helpers import (cholesky_vjp_blas, solve_cholesky_factor,
                                              triangular_solver)
from tests.gradcheck import rng

N = 7
try:
    import scipy.linalg  # noqa: F401
    HAS_SCIPY = True
except ImportError:     # the compat venvs: the NumPy paths only
    HAS_SCIPY = False
needs_scipy = pytest.mark.skipif(not HAS_SCIPY, reason="the SciPy paths")


def factor(dtype=np.float64, seed="factor"):
    A = rng("triangular_helpers", seed).normal(size=(N, N))
    return np.linalg.cholesky(A @ A.T + N * np.eye(N)).astype(dtype)


def cotangent(dtype=np.float64, seed="g"):
    return rng("triangular_helpers", seed).normal(size=(N, N)).astype(dtype)


def hide_scipy(monkeypatch):
    """`from scipy.linalg import ...` fails; the solve rule's cached lookup (restored after
    the test, so no later test inherits a None) says the same."""
    if HAS_SCIPY:
        registry._load_pending()     # SciPy's rule families registered before it is hidden
        monkeypatch.setitem(sys.modules, "scipy.linalg", None)
    monkeypatch.setattr(dh, "_SOLVE_TRIANGULAR", None)


@needs_scipy
@pytest.mark.parametrize("upper", [False, True])
@pytest.mark.parametrize("dtype,tol", [(np.float64, 1e-12), (np.float32, 1e-4)])
def test_cholesky_vjp_matches_the_numpy_path(upper, dtype, tol, monkeypatch):
    L, g = factor(dtype), cotangent(dtype)
    ans = L.T.copy() if upper else L
    fast = cholesky_vjp(g, ans, upper)
    hide_scipy(monkeypatch)
    slow = cholesky_vjp(g, ans, upper)
    assert fast.dtype == slow.dtype == dtype
    np.testing.assert_allclose(fast, slow, rtol=tol, atol=tol)
    np.testing.assert_array_equal(fast, fast.T)                 # symmetric


@needs_scipy
def test_cholesky_vjp_blas_reads_only_the_lower_triangle():
    L, g = factor(), cotangent()
    noisy = L + np.triu(cotangent(seed="noise"), 1)
    np.testing.assert_array_equal(cholesky_vjp_blas(noisy, g), cholesky_vjp_blas(L, g))
    np.testing.assert_array_equal(cholesky_vjp_blas(L, g + np.triu(g, 1)),
                                  cholesky_vjp_blas(L, g))


@pytest.mark.parametrize("case", ["stack", "mixed", "complex", "int", "vector g", "singular"])
def test_cholesky_vjp_blas_declines(case):
    L, g = factor(), cotangent()
    if case == "stack":
        L, g = np.stack([L, L]), np.stack([g, g])
    elif case == "mixed":
        L = L.astype(np.float32)
    elif case == "complex":
        L, g = L.astype(complex), g.astype(complex)
    elif case == "int":
        L, g = np.tril(np.ones((N, N), dtype=int)), np.ones((N, N), dtype=int)
    elif case == "vector g":
        g = g[0]
    else:
        L = L.copy()
        L[3, 3] = 0.0
    assert cholesky_vjp_blas(L, g) is None


def test_cholesky_vjp_blas_without_scipy_declines(monkeypatch):
    hide_scipy(monkeypatch)
    assert cholesky_vjp_blas(factor(), cotangent()) is None


@pytest.mark.parametrize("scipy_present", [True, False])
@pytest.mark.parametrize("lower", [True, False])
@pytest.mark.parametrize("rhs", [(N,), (N, 3)])
def test_solve_cholesky_factor_solves_with_its_triangle(lower, rhs, scipy_present, monkeypatch):
    L = factor() if lower else factor().T
    noise = cotangent(seed="noise")
    A = L + (np.triu(noise, 1) if lower else np.tril(noise, -1))   # the other triangle: ignored
    b = rng("triangular_helpers", "b").normal(size=rhs)
    if not scipy_present:
        hide_scipy(monkeypatch)
    x = solve_cholesky_factor(A, b, lower)
    np.testing.assert_allclose(x, np.linalg.solve(L, b), rtol=1e-12, atol=1e-13)


def test_without_scipy_the_value_is_numpys_bit_for_bit(monkeypatch):
    L, b = factor(), cotangent()[0]
    hide_scipy(monkeypatch)
    np.testing.assert_array_equal(solve_cholesky_factor(L, b, True), np.linalg.solve(L, b))


@pytest.mark.parametrize("case", ["list", "stack", "3-D b", "int", "mixed", "not square",
                                  "rows", "empty", "scalar b"])
def test_triangular_solver_declines(case):
    a, b = factor(), cotangent()[0]
    if case == "list":
        b = list(b)
    elif case == "stack":
        a = np.stack([a, a])
    elif case == "3-D b":
        b = np.ones((N, 2, 2))
    elif case == "int":
        a, b = np.eye(N, dtype=int), np.ones(N, dtype=int)
    elif case == "mixed":
        b = b.astype(np.float32)
    elif case == "not square":
        a = a[:, :-1]
        b = b[:N]
    elif case == "rows":
        b = b[:-1]
    elif case == "empty":
        a, b = np.zeros((0, 0)), np.zeros(0)
    else:
        b = np.float64(2.0)
    assert triangular_solver(a, b) is None


@needs_scipy
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128])
@pytest.mark.parametrize("rhs", [(N,), (N, 2)])
def test_triangular_solver_takes(dtype, rhs):
    a, b = factor().astype(dtype), np.ones(rhs, dtype=dtype)
    assert triangular_solver(a, b) is not None


def test_triangular_solver_without_scipy(monkeypatch):
    hide_scipy(monkeypatch)
    assert triangular_solver(factor(), cotangent()[0]) is None


@pytest.mark.parametrize("lower", [True, False])
def test_solve_vjp_keeps_a_known_triangle(lower):
    L = factor() if lower else factor().T
    b = cotangent()[:, :2]
    x = np.linalg.solve(L, b)
    g = cotangent(seed="g2")[:, :2]
    general = solve_vjp(g, x, L, b, 0)
    known = solve_vjp(g, x, L, b, 0, lower)
    np.testing.assert_allclose(known, np.tril(general) if lower else np.triu(general),
                               rtol=1e-12, atol=1e-13)
    np.testing.assert_allclose(solve_vjp(g, x, L, b, 1, lower), solve_vjp(g, x, L, b, 1),
                               rtol=1e-12, atol=1e-13)


@needs_scipy                # (without SciPy the factor is triangular, and solved whole)
@pytest.mark.parametrize("lower", [True, False])
def test_solve_transposed_with_a_known_triangle_reads_only_it(lower):
    L = factor() if lower else factor().T
    noise = cotangent(seed="noise")
    A = L + (np.triu(noise, 1) if lower else np.tril(noise, -1))
    rhs = cotangent(seed="rhs")
    np.testing.assert_allclose(solve_transposed(A, rhs, lower), np.linalg.solve(L.T, rhs),
                               rtol=1e-12, atol=1e-13)


def test_solve_transposed_with_a_known_triangle_of_a_stack():
    L = np.stack([factor(), factor(seed="other")])
    rhs = np.stack([cotangent(), cotangent(seed="rhs")])
    np.testing.assert_allclose(solve_transposed(L, rhs, True),
                               np.linalg.solve(np.swapaxes(L, -1, -2), rhs), rtol=1e-12)


@needs_scipy
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_cholesky_vjp_blas_takes_a_real_matrix(dtype):
    assert cholesky_vjp_blas(factor(dtype), cotangent(dtype)) is not None


def test_a_nan_passes_through_as_numpys_solve_lets_it():
    # np.linalg.solve does not check for NaN or inf; neither do the triangular solves
    L, b = factor(), cotangent()[0]
    b[2] = np.nan
    assert np.isnan(solve_cholesky_factor(L, b, True)).any()
    assert np.isnan(solve_transposed(L, b[:, None], True)).any()
