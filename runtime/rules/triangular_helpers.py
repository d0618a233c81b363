"""Triangular kernels for the Cholesky and solve rules where SciPy is installed (issue 19):
BLAS trmm (a triangular matrix times a full one: half a general product's work) and LAPACK
trtri (one triangular inverse), for real 2-D float32/float64 operands of one dtype. Each
function returns None where they do not apply, and its caller takes the NumPy path.
"""
import numpy as np

from ..registry import template_helper

_REAL = (np.dtype(np.float32), np.dtype(np.float64))


def _routines(L, g):
    """(trmm, trtri) for L's dtype, or None: no SciPy, a stack, mixed or other dtypes."""
    if np.ndim(L) != 2 or np.ndim(g) != 2 or L.dtype not in _REAL or g.dtype != L.dtype:
        return None
    try:
        from scipy.linalg import get_blas_funcs, get_lapack_funcs
    except ImportError:
        return None
    return get_blas_funcs("trmm", (L,)), get_lapack_funcs("trtri", (L,))


def cholesky_vjp_blas(L, gL):
    """sym(L^-T Phi(L^T gL) L^-1) for a lower-triangular L (Murray 2016) with one trtri and
    three trmm, which read only L's lower triangle; None where they do not apply or L is
    singular. (The NumPy path: a general product and two solves with n right-hand sides.)
    Computed transposed, with U = L^T: a C-ordered array's transpose is the Fortran-ordered
    operand LAPACK reads without a copy, and the intermediate products are overwritten."""
    U = L.T
    routines = _routines(U, gL)
    if routines is None:
        return None
    trmm, trtri = routines
    inverse, info = trtri(U, lower=0)                                     # U^-1 = L^-T
    if info != 0:
        return None
    PT = np.triu(trmm(1.0, U, gL.T, side=1, lower=0, trans_a=1))         # Phi(L^T gL)^T
    diagonal = np.arange(PT.shape[0])
    PT[diagonal, diagonal] /= 2
    right = trmm(1.0, inverse, PT, side=0, lower=0, overwrite_b=1)       # (P L^-1)^T
    both = trmm(1.0, inverse, right, side=1, lower=0, trans_a=1, overwrite_b=1)
    return (both + both.T) / 2                                            # both: (L^-T P L^-1)^T


_INEXACT = _REAL + (np.dtype(np.complex64), np.dtype(np.complex128))


@template_helper
def solve_cholesky_factor(a, b, lower):
    """x with T x = b for T the lower (lower=True) or upper triangle of `a`: what
    np.linalg.solve(a, b) computes where the compiler showed `a` is np.linalg.cholesky's
    output, unchanged (transform/lowering/cholesky_solves.py), so T is `a`. With SciPy,
    one 2-D `a` and a vector or matrix `b` of its dtype, a triangular solve (its value
    differs from the LU solve's by rounding); else np.linalg.solve of T (the same bits as
    np.linalg.solve(a, b) for a triangular `a`)."""
    solve = triangular_solver(a, b)
    if solve is None:
        return np.linalg.solve(np.tril(a) if lower else np.triu(a), b)
    return solve(a, b, lower=lower, check_finite=False)


def triangular_solver(a, b):
    """scipy.linalg.solve_triangular where it computes what np.linalg.solve(a, b) does for a
    triangular `a` (one square nonempty 2-D matrix, `b` of its rows and its inexact dtype,
    1-D or 2-D), else None."""
    if not (isinstance(a, np.ndarray) and isinstance(b, np.ndarray)) or a.ndim != 2 or \
            b.ndim not in (1, 2) or a.dtype not in _INEXACT or b.dtype != a.dtype or \
            a.shape[0] != a.shape[1] or b.shape[0] != a.shape[0] or a.shape[0] == 0:
        return None
    try:
        from scipy.linalg import solve_triangular
    except ImportError:
        return None
    return solve_triangular
