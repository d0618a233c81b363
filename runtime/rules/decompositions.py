"""Matrix functions and decompositions (real, stacked in the last two axes).

Limits (see the helpers): cholesky and eigh take symmetric inputs and return
symmetric cotangents; eigh needs distinct eigenvalues for eigenvector
cotangents; svd needs full_matrices=False (or a square matrix), hermitian=False
and distinct nonzero singular values for U/Vh cotangents; pinv assumes a
locally constant rank; inv, solve and slogdet need invertible matrices (det does not).
"""
import numpy as np

from ..registry import LINEAR, defvjp
from .det_helpers import cofactor, cofactor_jvp
from .triangular_helpers import solve_cholesky_factor

defvjp(np.linalg.inv, "a", "-(mT(ans) @ g @ mT(ans))", complex_ok=True, jvp="-(ans @ t_a @ ans)")
# det's gradient is the cofactor matrix, at every matrix (singular ones too: det_helpers.py)
defvjp(np.linalg.det, "a", "np.expand_dims(g, (-2, -1)) * cofactor(a)",
       complex_ok=True, jvp="np.sum(cofactor(a) * t_a, axis=(-2, -1))")
defvjp(cofactor, "a", "cofactor_jvp(a, g)", complex_ok=True, jvp="cofactor_jvp(a, t_a)")
# its tangent's (det's third derivative: well-conditioned matrices only, else refused)
defvjp(cofactor_jvp, "a, e", "cofactor_second(a, e, g)", "cofactor_jvp(a, g)", complex_ok=True,
       jvp=("cofactor_second(a, e, t_a)", LINEAR))
defvjp(np.linalg.slogdet, "a", "slogdet_vjp(g, a)",
       jvp="(None, np.sum(mT(np.linalg.inv(a)) * t_a, axis=(-2, -1)))")
defvjp(np.linalg.solve, "a, b", "solve_vjp(g, ans, a, b, 0)", "solve_vjp(g, ans, a, b, 1)",
       complex_ok=True, jvp=("-np.linalg.solve(a, t_a @ ans)", LINEAR))
# a Cholesky factor's solve reads one triangle of `a` (session 31, gp31)
defvjp(solve_cholesky_factor, "a, b, lower", "solve_vjp(g, ans, a, b, 0, lower)",
       "solve_vjp(g, ans, a, b, 1, lower)", None, complex_ok=True,
       jvp=("-np.linalg.solve(np.tril(a) if lower else np.triu(a), "
            "(np.tril(t_a) if lower else np.triu(t_a)) @ ans)", LINEAR))
defvjp(np.linalg.matrix_power, "a, n", "matrix_power_vjp(g, a, n)", None, complex_ok=True,
       jvp="matrix_power_jvp(t_a, a, n)")
defvjp(np.linalg.pinv, "a, rcond=None, hermitian=False, *, rtol=None",
       "pinv_vjp(g, ans, a, hermitian)", jvp="pinv_jvp(t_a, ans, a)")
defvjp(np.linalg.cholesky, "a, /, *, upper=False", "cholesky_vjp(g, ans, upper)",
       jvp="cholesky_jvp(t_a, ans, upper)")
defvjp(np.linalg.eigh, "a, UPLO='L'", "eigh_vjp(g, ans)", jvp="eigh_jvp(t_a, ans)")
defvjp(np.linalg.eigvalsh, "a, UPLO='L'", "eigvalsh_vjp(g, a, UPLO)",
       jvp="eigvalsh_jvp(t_a, a, UPLO)")
defvjp(np.linalg.svd, "a, full_matrices=True, compute_uv=True, hermitian=False",
       "svd_vjp(g, ans, a, full_matrices, compute_uv, hermitian)",
       jvp="svd_jvp(t_a, ans, a, full_matrices, compute_uv, hermitian)")
if hasattr(np.linalg, "svdvals"):                                         # NumPy 2.0+
    defvjp(np.linalg.svdvals, "x, /", "svd_vjp(g, ans, x, False, False)", jvp="svdvals_jvp(t_x, x)")
