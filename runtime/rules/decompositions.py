"""Matrix functions and decompositions (real, stacked in the last two axes).

Limits (see the helpers): cholesky and eigh take symmetric inputs and return
symmetric cotangents; eigh needs distinct eigenvalues for eigenvector
cotangents; svd needs full_matrices=False (or a square matrix), hermitian=False
and distinct nonzero singular values for U/Vh cotangents; pinv assumes a
locally constant rank; det, inv and solve need invertible matrices.
"""
import numpy as np

from ..registry import defvjp
from .triangular_helpers import solve_cholesky_factor

defvjp(np.linalg.inv, "a", "-(mT(ans) @ g @ mT(ans))", complex_ok=True)
defvjp(np.linalg.det, "a", "np.expand_dims(g * ans, (-2, -1)) * mT(np.linalg.inv(a))",
       complex_ok=True)
defvjp(np.linalg.slogdet, "a", "slogdet_vjp(g, a)")
defvjp(np.linalg.solve, "a, b", "solve_vjp(g, ans, a, b, 0)", "solve_vjp(g, ans, a, b, 1)",
       complex_ok=True)
defvjp(solve_cholesky_factor, "a, b, lower", "solve_vjp(g, ans, a, b, 0, lower)",
       "solve_vjp(g, ans, a, b, 1, lower)", None, complex_ok=True)
defvjp(np.linalg.matrix_power, "a, n", "matrix_power_vjp(g, a, n)", None, complex_ok=True)
defvjp(np.linalg.pinv, "a, rcond=None, hermitian=False, *, rtol=None",
       "pinv_vjp(g, ans, a, hermitian)")
defvjp(np.linalg.cholesky, "a, /, *, upper=False", "cholesky_vjp(g, ans, upper)")
defvjp(np.linalg.eigh, "a, UPLO='L'", "eigh_vjp(g, ans)")
defvjp(np.linalg.eigvalsh, "a, UPLO='L'", "eigvalsh_vjp(g, a, UPLO)")
defvjp(np.linalg.svd, "a, full_matrices=True, compute_uv=True, hermitian=False",
       "svd_vjp(g, ans, a, full_matrices, compute_uv, hermitian)")
if hasattr(np.linalg, "svdvals"):                                         # NumPy 2.0+
    defvjp(np.linalg.svdvals, "x, /", "svd_vjp(g, ans, x, False, False)")
