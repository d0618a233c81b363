"""scipy.linalg, continued: lu_factor/lu_solve, sqrtm, logm (registered only when SciPy
imports). Real square matrices, not stacked.

lu_factor: with A = P L U and M = strict_lower(L^T gL) + upper(gU U^T), the cotangent
is gA = P L^-T M U^-T (the pivots are piecewise constant: no cotangent). lu_solve's
factor cotangent is the one of a solve, gA = -gb x^T, carried back to (L, U).
sqrtm: X X = A, so gA solves the Sylvester equation X^T gA + gA X^T = G. logm uses the
block identity logm([[A^T, G], [0, A^T]]) = [[., gA], [0, .]] (as expm). Both are
refused (ValueError) where the result is not real (an eigenvalue on the closed negative
real axis), and sqrtm where the Sylvester equation is singular (a zero eigenvalue).
solve with assume_a: the general kinds (None, which detects structure exactly, 'gen',
'banded', whose band is read from a's nonzeros) keep scipy_linalg's rule; the others read
part of `a`, and its cotangent is the general one carried to that part: a triangle
mirrored for 'sym'/'her'/'pos' (the diagonal once), the triangle for the triangular
kinds, the diagonal or three diagonals for 'diagonal'/'tridiagonal'. transposed=True
solves a^T x = b. Complex values: lu_factor, lu_solve and solve (complex_ok); the
Hermitian kinds mirror conjugated (the diagonal read as real), and lu_solve's trans=2
solves A^H x = b, the plain transpose of conj(A).
"""
import numpy as np
import scipy.linalg as sl

from ..registry import LINEAR, defvjp, template_helper

defvjp(sl.lu_factor, "a, overwrite_a=False, check_finite=True", "lu_factor_vjp(g, ans)",
       None, None, complex_ok=True, jvp="lu_factor_jvp(t_a, ans)")
defvjp(sl.lu_solve, "lu_and_piv, b, trans=0, overwrite_b=False, check_finite=True",
       "lu_solve_factor_vjp(g, ans, lu_and_piv, trans)",
       "lu_solve_rhs_vjp(g, lu_and_piv, trans)",
       None, None, None, complex_ok=True,
       jvp=("lu_solve_factor_jvp(t_lu_and_piv, ans, lu_and_piv, trans)", LINEAR))
defvjp(sl.solve, "a, b, lower=False, overwrite_a=False, overwrite_b=False, check_finite=True, "
       "assume_a=None, transposed=False",
       "structured_solve_vjp(g, ans, a, b, 0, assume_a, lower, transposed)",
       "structured_solve_vjp(g, ans, a, b, 1, assume_a, lower, transposed)",
       None, None, None, None, None, None, complex_ok=True,
       jvp=("-np.linalg.solve(solved_matrix(a, assume_a, lower, transposed), "
            "solved_matrix(t_a, assume_a, lower, transposed) @ ans)", LINEAR))
defvjp(sl.sqrtm, "A, disp=True, blocksize=64", "sqrtm_vjp(g, ans)", None, None,
       jvp="sqrtm_jvp(t_A, ans)")
# logm's Frechet derivative L(A, .) is the transpose of L(A^T, .), which logm_vjp computes
defvjp(sl.logm, "A, disp=True", "logm_vjp(g, A, ans)", None, jvp="logm_vjp(t_A, A.T, ans)")


def _conjugate_transposed(lu_and_piv, trans):
    """(factors, conjugated): A^H x = b is conj(A)^T x = b, whose factors are conj(lu),
    so trans=2 of a complex factor is trans=1 of the conjugate factors."""
    lu, piv = lu_and_piv
    if trans in (2, "C") and np.iscomplexobj(lu):
        return (np.conj(lu), piv), True
    return lu_and_piv, False


@template_helper
def lu_solve_rhs_vjp(g, lu_and_piv, trans):
    """A^-T g (or A^-1 g when the solve was transposed; conj(A)^-1 g when conjugated)."""
    lu_and_piv, _ = _conjugate_transposed(lu_and_piv, trans)
    return sl.lu_solve(lu_and_piv, g, trans=0 if trans in (1, 2, "T", "C") else 1)


def _factors(lu):
    n = lu.shape[0]
    return np.tril(lu, -1) + np.eye(n, dtype=lu.dtype), np.triu(lu)


def _row_order(piv):
    """perm with A[perm] = L U, from LAPACK's row interchanges."""
    perm = np.arange(len(piv))
    for i, p in enumerate(piv):
        perm[i], perm[p] = perm[p], perm[i]
    return perm


@template_helper
def lu_factor_vjp(g, ans):
    """Cotangent of a in (lu, piv) = lu_factor(a)."""
    g_lu = g[0] if isinstance(g, (tuple, list)) else g
    if g_lu is None:
        return None
    lu, piv = ans
    L, U = _factors(lu)
    M = np.tril(L.T @ np.tril(g_lu, -1), -1) + np.triu(np.triu(g_lu) @ U.T)
    inner = sl.solve_triangular(L, M, trans=1, lower=True, unit_diagonal=True)   # L^-T M
    inner = sl.solve_triangular(U, inner.T, trans=0, lower=False).T               # ... U^-T
    out = np.empty_like(inner)
    out[_row_order(piv)] = inner
    return out


@template_helper
def lu_factor_jvp(t, ans):
    """(d_lu, None) for (lu, piv) = lu_factor(a), pivots held: with A[perm] = L U and
    F = L^-1 dA[perm] U^-1, dL = L strict_lower(F) and dU = upper(F) U."""
    lu, piv = ans
    L, U = _factors(lu)
    F = sl.solve_triangular(L, t[_row_order(piv)], lower=True, unit_diagonal=True)
    F = sl.solve_triangular(U, F.T, trans=1, lower=False).T                      # ... U^-1
    return (L @ np.tril(F, -1) + np.triu(F) @ U, None)


@template_helper
def lu_solve_factor_jvp(t, ans, lu_and_piv, trans):
    """dx = -A^-1 dA x (A^-T dA^T x when transposed), dA[perm] = dL U + L dU from the
    factors' tangent (the strict lower and upper parts of d_lu), pivots held."""
    (lu, piv), d_lu = lu_and_piv, t[0]
    if d_lu is None:                    # (the pivots' tangent alone)
        return np.zeros_like(ans)
    L, U = _factors(lu)
    dA = np.empty_like(d_lu)
    dA[_row_order(piv)] = np.tril(d_lu, -1) @ U + L @ np.triu(d_lu)
    transposed = trans in (1, 2, "T", "C")
    return -sl.lu_solve(lu_and_piv, (dA.T if transposed else dA) @ ans, trans=trans)


@template_helper
def lu_solve_factor_vjp(g, ans, lu_and_piv, trans):
    """(g_lu, None) for x = A^-1 b (or A^-T b, or A^-H b = conj(A)^-T b), A = P L U."""
    lu_and_piv, conjugated = _conjugate_transposed(lu_and_piv, trans)
    lu, piv = lu_and_piv
    transposed = trans in (1, 2, "T", "C")
    gb = sl.lu_solve(lu_and_piv, g, trans=0 if transposed else 1)
    x, gb = (ans, gb) if ans.ndim == 2 else (ans[:, None], gb[:, None])
    gA = -(x @ gb.T if transposed else gb @ x.T)
    L, U = _factors(lu)
    gA_rows = gA[_row_order(piv)]                                  # P^T gA
    g_lu = np.tril(gA_rows @ U.T, -1) + np.triu(L.T @ gA_rows)
    return (np.conj(g_lu) if conjugated else g_lu, None)       # conj's transpose is conj


def _real_or_refuse(name, value):
    if np.iscomplexobj(value):
        raise ValueError(f"scipy.linalg.{name} has a rule for real results only: this "
                         "matrix has an eigenvalue on the closed negative real axis")
    if np.ndim(value) != 2:
        raise ValueError(f"scipy.linalg.{name} has a rule for one matrix, not a stack")


@template_helper
def sqrtm_vjp(g, ans):
    _real_or_refuse("sqrtm", ans)
    eigenvalues = np.linalg.eigvals(ans)
    if np.min(np.abs(eigenvalues[:, None] + eigenvalues[None, :])) < \
            1e-12 * max(1.0, np.max(np.abs(eigenvalues))):
        raise ValueError("scipy.linalg.sqrtm's derivative does not exist at a singular "
                         "matrix (a zero eigenvalue)")
    return sl.solve_sylvester(ans.T, ans.T, g)


@template_helper
def logm_vjp(g, A, ans):
    _real_or_refuse("logm", ans)
    n = np.shape(A)[0]
    At = np.transpose(A)
    block = np.block([[At, g], [np.zeros_like(At), At]])
    # the block's eigenvalues are A's: its log is real too, and an imaginary part is
    # rounding (scipy keeps one above 1e-10 absolute, reached when g is large). Plain
    # NumPy over logm's rule: reverse mode takes it from its source (second order)
    return np.real(sl.logm(block)[:n, n:])


GENERAL = (None, "gen", "general", "banded")
SYMMETRIC = ("sym", "symmetric", "her", "hermitian", "pos", "positive definite")
HERMITIAN = ("her", "hermitian", "pos", "positive definite")


def _mirrored(m, kind):
    """The matrix of one triangle `m` mirrored (conjugated for the Hermitian kinds, whose
    diagonal LAPACK reads as real); the same map carries a cotangent back to m."""
    both = m + (np.conj(m) if kind in HERMITIAN else m).T
    return both - np.diag(np.diag(both)) / 2


def _read_part(kind, lower):
    """The part of `a` solve reads for assume_a=kind, as a mask function of a matrix."""
    if kind in SYMMETRIC:
        return np.tril if lower else np.triu
    masks = {"lower triangular": np.tril, "upper triangular": np.triu,
             "diagonal": lambda m: np.diag(np.diag(m)),
             "tridiagonal": lambda m: np.triu(np.tril(m, 1), -1)}
    if kind not in masks:
        raise ValueError(f"scipy.linalg.solve: unknown assume_a={kind!r}")
    return masks[kind]


@template_helper
def solved_matrix(a, assume_a, lower, transposed):
    """The matrix solve(a, b, assume_a=..., lower=..., transposed=...) solves with: the
    part of `a` it reads, mirrored for the symmetric kinds (linear in a)."""
    part = a if assume_a in GENERAL else _read_part(assume_a, lower)(np.asarray(a))
    part = _mirrored(part, assume_a) if assume_a in SYMMETRIC else part
    return part.T if transposed else part


@template_helper
def structured_solve_vjp(g, ans, a, b, operand, assume_a, lower, transposed):
    """Cotangent of a (operand 0) or b (1) in solve(a, b, assume_a=..., transposed=...)."""
    if assume_a in (None, "gen", "general") and not transposed:
        from .scipy_linalg import general_solve_vjp
        return general_solve_vjp(g, ans, a, b, operand, assume_a, transposed)
    a = np.asarray(a)
    part = a if assume_a in GENERAL else _read_part(assume_a, lower)(a)
    if assume_a in SYMMETRIC:                       # the matrix solved with
        part = _mirrored(part, assume_a)
    op = part.T if transposed else part
    vector = np.ndim(b) == 1
    gb = np.linalg.solve(op.T, g[:, None] if vector else g)
    if operand == 1:
        return gb[:, 0] if vector else gb
    g_op = -gb @ (ans[:, None] if vector else ans).T
    g_part = g_op.T if transposed else g_op
    if assume_a in GENERAL:
        return g_part
    if assume_a in SYMMETRIC:                       # both mirrored entries come from one
        g_part = _mirrored(g_part, assume_a)
    return _read_part(assume_a, lower)(g_part)
