"""scipy.linalg: registered only when SciPy imports (runtime/rules/__init__.py).

Real matrices (not stacked). The cotangents of the matrix functions shared with NumPy
(inv, det, solve, cholesky, eigh, svd) reuse NumPy's rules; SciPy's cholesky returns the
upper factor by default. A triangular solve's cotangent lives on the triangle it reads
(its diagonal dropped for unit_diagonal=True). solve takes assume_a="gen" only: for the
symmetric kinds SciPy reads one triangle, which these rules do not model (refused).
expm uses the block-triangular identity expm([[A^T, G], [0, A^T]]) = [[., dA], [0, .]].
"""
import numpy as np
import scipy.linalg as sl

from ..registry import LINEAR, NONE, defvjp, template_helper
from .decompositions_helpers import cholesky_vjp, eigh_vjp, eigvalsh_vjp
from .forward_linalg_helpers import cholesky_jvp

defvjp(sl.inv, "a, overwrite_a=False, check_finite=True", "-(ans.T @ g @ ans.T)", complex_ok=True,
       jvp="-(ans @ t_a @ ans)")
defvjp(sl.det, "a, overwrite_a=False, check_finite=True",      # (singular a too: det_helpers.py)
       "np.expand_dims(g, (-2, -1)) * cofactor(a)", complex_ok=True,
       jvp="np.sum(cofactor(a) * t_a, axis=(-2, -1))")
# sl.solve: every assume_a kind, in scipy_linalg_more.py
defvjp(sl.solve_triangular, "a, b, trans=0, lower=False, unit_diagonal=False, "
       "overwrite_b=False, check_finite=True",
       "triangular_solve_vjp(g, ans, a, b, 0, trans, lower, unit_diagonal)",
       "triangular_solve_vjp(g, ans, a, b, 1, trans, lower, unit_diagonal)", complex_ok=True,
       jvp=("triangular_solve_jvp(t_a, ans, a, trans, lower, unit_diagonal)", LINEAR))
defvjp(sl.cholesky, "a, lower=False, overwrite_a=False, check_finite=True",
       "cholesky_vjp(g, ans, not lower)", jvp="cholesky_jvp(t_a, ans, not lower)")
# (c, lower) = cho_factor(a): c's other triangle is unread (scipy: "random data"), and
# its tangent is zero, as its cotangent is never read (c holds a's entries there)
defvjp(sl.cho_factor, "a, lower=False, overwrite_a=False, check_finite=True",
       "cho_factor_vjp(g, ans)", jvp="cho_factor_jvp(t_a, ans)")
defvjp(sl.cho_solve, "c_and_lower, b, overwrite_b=False, check_finite=True",
       "cho_solve_factor_vjp(g, ans, c_and_lower)", "cho_solve_rhs_vjp(g, c_and_lower)",
       jvp=("cho_solve_factor_jvp(t_c_and_lower, ans, c_and_lower)", LINEAR))
# with b (not differentiated) the eigenvectors are b-orthonormal: V^T b V = I, and both
# cotangents keep the form V (...) V^T with those V (the eigenvalues' from eigh(a, b))
defvjp(sl.eigh, "a, b=None, *, lower=True, eigvals_only=False",
       "eigh_values_vjp(g, a, b, lower) if eigvals_only else eigh_vjp(g, ans)", NONE,
       jvp="scipy_eigvalsh_jvp(t_a, a, b, lower, 1, None, None) if eigvals_only else "
       "eigh_jvp(t_a, ans)")
defvjp(sl.svd, "a, full_matrices=True, compute_uv=True",
       "svd_vjp(g, ans, a, full_matrices, compute_uv)",
       jvp="svd_jvp(t_a, ans, a, full_matrices, compute_uv)")
defvjp(sl.expm, "A", "expm_vjp(g, A)", complex_ok=True, jvp="expm_jvp(t_A, A)")


@template_helper
def eigh_values_vjp(g, a, b, lower):
    """Cotangent of a of scipy.linalg.eigh(a, b, eigvals_only=True): V diag(g) V^T with
    V the (b-orthonormal) eigenvectors of the problem that was solved."""
    if b is None:
        return eigvalsh_vjp(g, a, "L" if lower else "U")
    return eigh_vjp((g, None), sl.eigh(a, b, lower=lower))


@template_helper
def general_solve_vjp(g, ans, a, b, operand, assume_a, transposed):
    if assume_a not in (None, "gen", "general") or transposed:
        raise TypeError("scipy.linalg.solve has a rule for assume_a='gen' (transposed=False) "
                        "only: for the symmetric kinds SciPy reads one triangle of a")
    from .decompositions_helpers import solve_vjp
    return solve_vjp(g, ans, a, b, operand)


@template_helper
def triangular_solve_vjp(g, ans, a, b, operand, trans, lower, unit_diagonal):
    """x = op(T)^-1 b: gb = op(T)^-T g, g_op(T) = -gb x^T, kept on T's triangle. A
    complex T with trans=2 ('C') solves T^H x = b, the plain transpose of conj(T): its
    cotangent is the conjugate of conj(T)'s (conj's transpose is conj)."""
    conjugated = trans in (2, "C") and np.iscomplexobj(a)
    a = np.conj(a) if conjugated else a
    transposed = trans in (1, 2, "T", "C")
    gb = sl.solve_triangular(a, g, trans=0 if transposed else 1, lower=lower,
                             unit_diagonal=unit_diagonal)
    if operand == 1:
        return gb
    x = ans if ans.ndim == 2 else ans[:, None]
    ga = -(gb if gb.ndim == 2 else gb[:, None]) @ x.T
    ga = ga.T if transposed else ga
    ga = np.tril(ga) if lower else np.triu(ga)
    if unit_diagonal:
        np.fill_diagonal(ga, 0.0)
    return np.conj(ga) if conjugated else ga


@template_helper
def cho_factor_vjp(g, ans):
    """Cotangent of a in (c, lower) = cho_factor(a): the factor's triangle, as cholesky."""
    gc, (c, lower) = (g[0] if isinstance(g, (tuple, list)) else g), ans
    if gc is None:
        return None
    mask = np.tril if lower else np.triu
    return cholesky_vjp(mask(gc), mask(c), not lower)


@template_helper
def cho_solve_rhs_vjp(g, c_and_lower):
    return sl.cho_solve(c_and_lower, g)


@template_helper
def cho_solve_factor_vjp(g, ans, c_and_lower):
    """(gc, None) for x = (L L^T)^-1 b: with gA = -gb x^T, gL = (gA + gA^T) L."""
    c, lower = c_and_lower
    L = np.tril(c) if lower else np.triu(c).T
    gb = sl.cho_solve(c_and_lower, g)
    x, gb = (ans, gb) if ans.ndim == 2 else (ans[:, None], gb[:, None])
    gA = -gb @ x.T
    gL = np.tril((gA + gA.T) @ L)
    return (gL if lower else gL.T, None)


@template_helper
def cho_factor_jvp(t, ans):
    """(dC, None) for (c, lower) = cho_factor(a): the Cholesky factor's tangent on its
    triangle (cholesky_jvp), zero on the unread one."""
    c, lower = ans
    return (cholesky_jvp(t, np.tril(c) if lower else np.triu(c), not lower), None)


@template_helper
def cho_solve_factor_jvp(t, ans, c_and_lower):
    """dx = -A^-1 dA x for x = A^-1 b, A = L L^T (or U^T U) from the factor's triangle."""
    (c, lower), dc = c_and_lower, t[0]
    if dc is None:                      # (the flag's tangent alone)
        return np.zeros_like(ans)
    F, dF = (np.tril(c), np.tril(dc)) if lower else (np.triu(c).T, np.triu(dc).T)
    dA = dF @ F.T + F @ dF.T
    return -sl.cho_solve(c_and_lower, dA @ ans)


@template_helper
def expm_vjp(g, A):
    """A may be a stack of matrices (..., n, n), as sl.expm accepts."""
    n = A.shape[-1]
    block = np.zeros(A.shape[:-2] + (2 * n, 2 * n), dtype=np.result_type(A, g))
    block[..., :n, :n] = block[..., n:, n:] = np.swapaxes(A, -1, -2)
    block[..., :n, n:] = g
    return sl.expm(block)[..., :n, n:]


@template_helper
def triangular_solve_jvp(t, ans, a, trans, lower, unit_diagonal):
    """The tangent of solve_triangular(a, b) from a: -op(a)^-1 op(da) x, da the part of
    t in a's triangle (below or above the diagonal only when the diagonal is unit)."""
    skip = 1 if unit_diagonal else 0
    part = np.tril(t, -skip) if lower else np.triu(t, skip)
    part = part if trans in (0, "N") else part.T
    return -sl.solve_triangular(a, part @ ans, trans=trans, lower=lower,
                                unit_diagonal=unit_diagonal)


@template_helper
def matrix_equation_jvp(t, ans, kind, a, b, operand):
    """The tangent of X from A (operand 0) or B (1): A X + X B = Q ('sylvester'),
    A X + X A^T = Q ('continuous'), X - A X A^T = Q ('discrete'), Q held."""
    if kind == "sylvester":
        return sl.solve_sylvester(a, b, -(t @ ans if operand == 0 else ans @ t))
    if kind == "continuous":
        return sl.solve_continuous_lyapunov(a, -(t @ ans + ans @ t.T))
    return sl.solve_discrete_lyapunov(a, t @ ans @ a.T + a @ ans @ t.T)


@template_helper
def expm_jvp(t, A):
    """The tangent of expm(A): its Frechet derivative in the direction t."""
    return sl.expm_frechet(A, t, compute_expm=False)


@template_helper
def sqrtm_jvp(t, ans):
    """The tangent of X = sqrtm(A): X dX + dX X = dA."""
    return sl.solve_sylvester(ans, ans, t)
