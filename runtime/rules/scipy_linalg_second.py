"""Reverse rules for the scipy.linalg JVP helpers that generated forward-mode code calls
(hvp, hessian, grad of grad: reverse mode over forward mode's code), each with its own
JVP. Registered with the scipy_linalg_eig family (when SciPy imports).

expm: L(A, t) = expm_jvp(t, A), the Frechet derivative, is the top-right block of
expm(B), B = [[A, t], [0, A]] (linear in A and t together). In t its adjoint is
L(A^T, .) (expm_vjp); in A the cotangent of B is expm_vjp at B with the cotangent in the
top-right block, summed over B's two diagonal blocks; its tangent in A along s is the
top-right block of L(B, [[s, 0], [0, s]]).

solve: solved_matrix (the matrix sl.solve reads for assume_a, lower, transposed) is
linear in a: a triangle mask, mirrored for the symmetric kinds, transposed. Each step
is its own adjoint (real values) but the transpose, so the cotangent runs them backwards.
"""
import numpy as np

from ..registry import LINEAR, ZERO, defvjp, nondiff, template_helper
from .scipy_linalg import expm_jvp, expm_vjp
from .scipy_linalg_more import GENERAL, SYMMETRIC, _mirrored, _read_part, _row_order, \
    solved_matrix

# the row order of lu_factor's pivots, read by lu_factor_jvp and lu_solve_factor_jvp,
# which reverse mode differentiates from their source (generated_calls.py BY_SOURCE)
nondiff(_row_order, why=ZERO)


def _block(a, b, c, d):
    """[[a, b], [c, d]] of four n x n matrices (stacked in the leading axes)."""
    return np.concatenate([np.concatenate([a, b], -1), np.concatenate([c, d], -1)], -2)


@template_helper
def expm_jvp_vjp(g, t, A):
    """The cotangent of A in expm_jvp(t, A) = L(A, t), along g."""
    n, zero = A.shape[-1], np.zeros_like(A)
    top = expm_vjp(_block(zero, g, zero, zero), _block(A, t, zero, A))
    return top[..., :n, :n] + top[..., n:, n:]


@template_helper
def expm_jvp_a_jvp(s, t, A):
    """The tangent of L(A, t) as A moves along s (t held): the second Frechet derivative."""
    n, zero = A.shape[-1], np.zeros_like(A)
    return expm_jvp(_block(s, zero, zero, s), _block(A, t, zero, A))[..., :n, n:]


defvjp(expm_jvp, "t, A", "expm_vjp(g, A)", "expm_jvp_vjp(g, t, A)",
       jvp=(LINEAR, "expm_jvp_a_jvp(t_A, t, A)"))


@template_helper
def solved_matrix_vjp(g, assume_a, lower, transposed):
    """The cotangent of `a` in solved_matrix(a, assume_a, lower, transposed) (real)."""
    g = np.swapaxes(g, -1, -2) if transposed else g
    g = _mirrored(g, assume_a) if assume_a in SYMMETRIC else g
    return g if assume_a in GENERAL else _read_part(assume_a, lower)(g)


defvjp(solved_matrix, "a, assume_a, lower, transposed",
       "solved_matrix_vjp(g, assume_a, lower, transposed)", None, None, None, jvp=LINEAR)
