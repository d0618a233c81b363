"""Template helpers for matrix functions and decompositions (real, stacked in the
last two axes like NumPy's). Formulas: M. Giles, "An extended collection of
matrix derivative results" (2008); I. Murray, "Differentiation of the Cholesky
decomposition" (2016); J. Townsend, "Differentiating the SVD" (2016).
"""
import numpy as np

from ..complex_safety import RuleRefused
from ..registry import template_helper
from .shape_helpers import sum_to_shape
from ..thunks import unthunk
from .triangular_helpers import cholesky_vjp_blas, triangular_solver

_NUMPY_1 = np.lib.NumpyVersion(np.__version__).major < 2


@template_helper
def mT(x):
    """The transpose of the last two axes: x.mT, which NumPy 1.26 lacks."""
    return np.swapaxes(x, -1, -2)


def _sym(x):
    """The symmetric part: symmetric-input functions (cholesky, eigh) read only one
    triangle, so their cotangent is taken in the space of symmetric matrices."""
    return (x + mT(x)) / 2


def _diag_indices(n):
    return np.arange(n), np.arange(n)


def _parts(g, count):
    """A tuple output's cotangent as `count` values, None where zero."""
    parts = [unthunk(p) for p in g] if isinstance(g, (tuple, list)) else [g]
    return parts + [None] * (count - len(parts))


@template_helper
def solve_vjp(slopes, answer, a, b, operand, lower=None):
    """Cotangent of `a` (operand 0) or `b` (1) in x = np.linalg.solve(a, b).

    gb = solve(a^T, g) and ga = -gb x^T. NumPy 2 treats b as a vector only if 1-D,
    NumPy 1 also when it has one dimension fewer than a (a stack of vectors). lower:
    True or False if the compiler showed `a` is a lower or upper Cholesky factor
    (solve_cholesky_factor), None if unknown.
    """
    a = np.asarray(a)
    vector = np.ndim(b) == 1 or (_NUMPY_1 and np.ndim(b) == a.ndim - 1)
    gb = solve_transposed(a, slopes[..., None] if vector else slopes, lower)
    if operand == 1:
        return sum_to_shape(gb[..., 0] if vector else gb, np.shape(b))
    x = answer[..., None] if vector else answer
    ga = sum_to_shape(-(gb @ mT(x)), a.shape)
    if lower is None:
        return ga
    return np.tril(ga) if lower else np.triu(ga)     # solve_cholesky_factor reads T only


@template_helper
def slogdet_vjp(g, a):
    """Cotangent of np.linalg.slogdet: d log|det a| = inv(a)^T; the sign is constant."""
    g_logdet = _parts(g, 2)[1]
    if g_logdet is None:
        return None
    return np.expand_dims(g_logdet, (-2, -1)) * mT(np.linalg.inv(a))


@template_helper
def cholesky_vjp(slopes, answer, upper):
    """Cotangent of np.linalg.cholesky (Murray 2016), symmetric.

    With P = Phi(L^T gL) (lower triangle, diagonal halved), a-bar = L^-T P L^-1.
    """
    L, gL = (mT(answer), mT(slopes)) if upper else (answer, slopes)
    fast = cholesky_vjp_blas(L, gL)
    if fast is not None:
        return fast
    P = np.tril(mT(L) @ gL)
    rows, cols = _diag_indices(P.shape[-1])
    P[..., rows, cols] /= 2
    left = solve_upper(mT(L), P)                          # L^-T P
    return _sym(mT(solve_upper(mT(L), mT(left))))         # (L^-T (L^-T P)^T)^T


def solve_upper(U, B):
    """U^-1 B for an upper-triangular U: a triangular solve where SciPy is installed
    (NumPy has none; a general solve factorises U again), else np.linalg.solve."""
    solve_triangular = _scipy_solve_triangular()
    if solve_triangular is not None and U.ndim == 2:
        return solve_triangular(U, B, lower=False, check_finite=False)
    return np.linalg.solve(U, B)


def solve_transposed(a, rhs, lower=None):
    """a^-T rhs: a triangular solve where `a` is triangular and SciPy is installed (a
    Cholesky factor passed to np.linalg.solve: issue 19), else a general solve. A dense
    matrix costs two element reads (its corners) to rule out; `lower` given (True or
    False) says which triangle without looking."""
    if lower is not None and triangular_solver(a, rhs) is not None:
        return triangular_solver(a, rhs)(a, rhs, trans=1, lower=lower, check_finite=False)
    if a.ndim == 2 and a.shape[0] >= 8:
        lower = _triangle(a)
        solve_triangular = None if lower is None else _scipy_solve_triangular()
        if solve_triangular is not None:
            return solve_triangular(a, rhs, trans=1, lower=lower, check_finite=False)
    return np.linalg.solve(mT(a), rhs)


def _triangle(a):
    """True if `a` is lower triangular, False if upper, None if neither."""
    if a[0, -1] == 0 and not np.any(np.triu(a, 1)):
        return True
    if a[-1, 0] == 0 and not np.any(np.tril(a, -1)):
        return False
    return None


def _scipy_solve_triangular():
    """scipy.linalg.solve_triangular if SciPy is installed (imported on first use, so
    `import transform` does not pay for SciPy), else None."""
    global _SOLVE_TRIANGULAR
    if _SOLVE_TRIANGULAR is False:
        try:
            from scipy.linalg import solve_triangular
        except ImportError:
            solve_triangular = None
        _SOLVE_TRIANGULAR = solve_triangular
    return _SOLVE_TRIANGULAR


_SOLVE_TRIANGULAR = False            # not looked up yet


def _inverse_gaps(w):
    """F[i, j] = 1 / (w[j] - w[i]) off the diagonal, 0 on it (w must be distinct)."""
    gaps = w[..., None, :] - w[..., :, None]
    rows, cols = _diag_indices(w.shape[-1])
    gaps[..., rows, cols] = np.inf
    return 1 / gaps


@template_helper
def eigh_vjp(g, ans):
    """Cotangent of np.linalg.eigh: V (diag(gw) + F o (V^T gV)) V^T, symmetric.

    Needs distinct eigenvalues when the eigenvectors' cotangent is nonzero.
    """
    w, v = ans
    gw, gv = _parts(g, 2)
    inner = np.zeros(v.shape, dtype=v.dtype) if gv is None else _inverse_gaps(w) * (mT(v) @ gv)
    if gw is not None:                    # its own buffer: gw's dtype may be wider than v's
        diag = np.zeros(v.shape, dtype=np.result_type(v, gw))
        rows, cols = _diag_indices(w.shape[-1])
        diag[..., rows, cols] = gw
        inner = inner + diag
    return _sym(v @ inner @ mT(v))


@template_helper
def eigvalsh_vjp(g, a, UPLO="L"):
    """Cotangent of np.linalg.eigvalsh: V diag(g) V^T."""
    w, v = np.linalg.eigh(a, UPLO)
    return _sym((v * np.expand_dims(g, -2)) @ mT(v))


@template_helper
def svd_vjp(g, ans, a, full_matrices, compute_uv, hermitian=False):
    """Cotangent of np.linalg.svd (Townsend 2016), for the thin SVD.

    Limits: full_matrices=True only for square matrices; hermitian=False; the
    singular values must be distinct and nonzero when U or Vh has a cotangent.
    """
    a = np.asarray(a)
    if hermitian:
        raise RuleRefused("svd with hermitian=True has no rule")
    if full_matrices and compute_uv and a.shape[-1] != a.shape[-2]:
        raise RuleRefused("svd of a non-square matrix needs full_matrices=False")
    if not compute_uv:
        u, s, vh = np.linalg.svd(a, full_matrices=False)
        return (u * np.expand_dims(g, -2)) @ vh
    u, s, vh = ans
    gu, gs, gvh = _parts(g, 3)
    inner = np.zeros(u.shape[:-2] + (s.shape[-1],) * 2, dtype=a.dtype)
    if gs is not None:
        rows, cols = _diag_indices(s.shape[-1])
        inner[..., rows, cols] = gs
    out = 0
    if gu is not None or gvh is not None:
        F = _inverse_gaps(s ** 2)
        s_row = np.expand_dims(s, -2)
        if gu is not None:
            J = mT(u) @ gu
            inner = inner + F * (J - mT(J)) * s_row
            out = out + ((gu - u @ J) / s_row) @ vh      # (I - U U^T) gU S^-1 V^T
        if gvh is not None:
            gv, v = mT(gvh), mT(vh)
            K = mT(v) @ gv
            inner = inner + mT(s_row) * F * (K - mT(K))
            out = out + (u / s_row) @ mT(gv - v @ K)    # U S^-1 gV^T (I - V V^T)
    return u @ inner @ vh + out


@template_helper
def pinv_vjp(g, ans, a, hermitian):
    """Cotangent of np.linalg.pinv (Golub and Pereyra), valid where the rank is
    locally constant (no singular value near the cutoff).

    With X = pinv(a): -X^T g X^T + (I - a X) g^T X X^T + X^T X g^T (I - X a).
    """
    if hermitian:
        raise RuleRefused("pinv with hermitian=True has no rule")
    a, X = np.asarray(a), ans
    gT = mT(g)
    out = -(mT(X) @ g @ mT(X))
    left = gT @ X @ mT(X)
    out = out + left - a @ (X @ left)
    right = mT(X) @ X @ gT
    return out + right - (right @ X) @ a


@template_helper
def matrix_power_vjp(g, a, n):
    """Cotangent of np.linalg.matrix_power: sum_k (a^T)^k g (a^T)^(n-1-k); n < 0
    goes through the inverse."""
    a = np.asarray(a)
    if n < 0:
        inv = np.linalg.inv(a)
        return -(mT(inv) @ matrix_power_vjp(g, inv, -n) @ mT(inv))
    powers = [None] * max(n, 1)
    if n > 0:
        powers[0] = np.broadcast_to(np.eye(a.shape[-1], dtype=a.dtype), a.shape)
    for k in range(1, n):
        powers[k] = powers[k - 1] @ a
    cot = np.zeros(np.broadcast_shapes(a.shape, np.shape(g)), dtype=np.result_type(a, g))
    for k in range(n):
        cot = cot + mT(powers[k]) @ g @ mT(powers[n - 1 - k])
    return cot
