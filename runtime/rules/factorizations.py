"""QR, least squares and the general eigendecomposition (real matrices, stacked in the
last two axes).

np.linalg.qr takes mode='reduced' (the default) and a full-rank matrix; other modes
are refused when differentiated. np.linalg.lstsq needs a full-rank matrix (refused
otherwise) and differentiates the solution, the residuals and the singular values in
a and b. np.linalg.eig and eigvals take real matrices with real, distinct eigenvalues
(a complex spectrum is refused with a clear error); eigenvectors are NumPy's unit-norm
ones, whose sign NumPy picks: a loss must not depend on it.
"""
import numpy as np

from ..registry import defvjp

defvjp(np.linalg.qr, "a, mode='reduced'", "qr_vjp(g, ans, a, mode)", None,
       jvp="qr_jvp(t_a, ans, a, mode)")
defvjp(np.linalg.lstsq, "a, b, rcond=None", "lstsq_vjp(g, ans, a, b, rcond, 0)",
       "lstsq_vjp(g, ans, a, b, rcond, 1)", None,
       jvp=("lstsq_jvp(t_a, ans, a, b, 0)", "lstsq_jvp(t_b, ans, a, b, 1)"))
defvjp(np.linalg.eig, "a", "eig_vjp(g, ans, a)", jvp="eig_jvp(t_a, ans)")
defvjp(np.linalg.eigvals, "a", "eigvals_vjp(g, a)", jvp="eigvals_jvp(t_a, a)")
