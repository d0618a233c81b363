"""scipy.linalg's qr, lstsq, pinv and eigvalsh (registered only when SciPy imports), on
NumPy's rules for the same factorizations (factorizations_helpers.py,
decompositions_helpers.py). Real matrices, not stacked.

qr: mode 'economic' is NumPy's 'reduced'; 'full' is the same for a square or wide
matrix, and for a tall one refused (the last m - n columns of Q are not unique); 'r'
returns (R,), whose rows below the n-th are zeros. With pivoting=True, A P = Q R and
the pivots are locally constant: the cotangent of A P is put back in A's columns.
lstsq: a full-rank a (refused otherwise), the solution, the residues and (for the
gelsd and gelss drivers) the singular values. pinv: where the rank is locally constant
(no singular value at the atol/rtol cutoff). eigvalsh: one triangle of a symmetric a
is read; with b (not differentiated) the eigenvalues of the generalized problem of type
1; subset_by_index and subset_by_value are refused.
"""
import numpy as np
import scipy.linalg as sl

from ..complex_safety import RuleRefused
from ..registry import NONE, defvjp, template_helper
from .decompositions_helpers import pinv_vjp
from .forward_linalg_helpers import eigh_jvp, qr_jvp
from .factorizations_helpers import lstsq_vjp, qr_vjp
from .scipy_linalg import eigh_values_vjp


def _qr_mode(a, mode):
    m, n = np.shape(a)
    if mode not in ("full", "economic", "r") or mode == "full" and m > n:
        raise RuleRefused(f"scipy.linalg.qr's rule takes mode='economic', 'r', or "
                                  f"'full' of a matrix with no more rows than columns, not "
                                  f"mode={mode!r} of a {m}x{n} matrix")
    return m, n


@template_helper
def scipy_qr_vjp(g, ans, a, mode, pivoting):
    """Cotangent of a in scipy.linalg.qr(a, mode=mode, pivoting=pivoting)."""
    a = np.asarray(a)
    m, n = _qr_mode(a, mode)
    parts = list(g) if isinstance(g, (tuple, list)) else [g]
    columns = ans[-1] if pivoting else np.arange(n)
    moved = a[:, columns]
    if mode == "r":             # the same factorization, with Q; R's zero rows reach nothing
        Q, R = sl.qr(moved, mode="economic")
        gQ, gR = None, None if parts[0] is None else np.asarray(parts[0])[:min(m, n)]
    else:
        Q, R = ans[0], ans[1]
        gQ, gR = parts[0], parts[1]
    cot = qr_vjp((gQ, gR), (Q, R), moved, "reduced")
    out = np.zeros_like(cot)
    out[:, columns] = cot
    return out


@template_helper
def scipy_lstsq_vjp(g, ans, a, b, operand):
    """NumPy's lstsq rule; the gelsy driver returns no singular values (s is None)."""
    if ans[3] is None and isinstance(g, (tuple, list)):
        g = tuple(g[:3]) + (None,)
    return lstsq_vjp(g, ans, a, b, None, operand)


@template_helper
def scipy_pinv_vjp(g, ans, a, return_rank):
    """pinv's cotangent (NumPy's rule); with return_rank, ans is (X, rank)."""
    if return_rank:
        g, ans = g[0], ans[0]
    return pinv_vjp(g, ans, a, False)


def _whole_spectrum(b, type, subset_by_index, subset_by_value):
    if subset_by_index is not None or subset_by_value is not None or b is not None and type != 1:
        raise RuleRefused("scipy.linalg.eigvalsh's rule takes all the eigenvalues "
                                  "(no subset_by_index or subset_by_value), and type=1 with b")


@template_helper
def scipy_eigvalsh_vjp(g, a, b, lower, type, subset_by_index, subset_by_value):
    _whole_spectrum(b, type, subset_by_index, subset_by_value)
    return eigh_values_vjp(g, a, b, lower)


@template_helper
def scipy_eigvalsh_jvp(t, a, b, lower, type, subset_by_index, subset_by_value):
    """eigh's tangent of the eigenvalues (b held)."""
    _whole_spectrum(b, type, subset_by_index, subset_by_value)
    return eigh_jvp(t, sl.eigh(a, b, lower=lower))[0]


@template_helper
def scipy_qr_jvp(t, ans, a, mode, pivoting):
    """The tangent of scipy.linalg.qr(a, mode=mode, pivoting=pivoting): NumPy's rule on
    the permuted columns (the pivots are locally constant); mode 'r' pads R's zero rows."""
    a = np.asarray(a)
    m, n = _qr_mode(a, mode)
    columns = ans[-1] if pivoting else np.arange(n)
    moved = a[:, columns]
    Q, R = sl.qr(moved, mode="economic") if mode == "r" else ans[:2]
    dQ, dR = qr_jvp(t[:, columns], (Q, R), moved, "reduced")
    if mode == "r":
        dR = np.concatenate([dR, np.zeros((m - len(dR), n))])
        return (dR, None) if pivoting else (dR,)
    return (dQ, dR, None) if pivoting else (dQ, dR)


defvjp(sl.qr, "a, overwrite_a=False, lwork=None, mode='full', pivoting=False, check_finite=True",
       "scipy_qr_vjp(g, ans, a, mode, pivoting)", None, None, None, None, None,
       jvp="scipy_qr_jvp(t_a, ans, a, mode, pivoting)")
defvjp(sl.lstsq, "a, b, cond=None, overwrite_a=False, overwrite_b=False, check_finite=True, "
       "lapack_driver=None", "scipy_lstsq_vjp(g, ans, a, b, 0)",
       "scipy_lstsq_vjp(g, ans, a, b, 1)", None, None, None, None, None,
       jvp=("lstsq_jvp(t_a, ans, a, b, 0)", "lstsq_jvp(t_b, ans, a, b, 1)"))
defvjp(sl.pinv, "a, *, atol=None, rtol=None, return_rank=False, check_finite=True",
       "scipy_pinv_vjp(g, ans, a, return_rank)", NONE, NONE, None, None,
       jvp="(pinv_jvp(t_a, ans[0], a), None) if return_rank else pinv_jvp(t_a, ans, a)")
defvjp(sl.eigvalsh, "a, b=None, *, lower=True, overwrite_a=False, overwrite_b=False, type=1, "
       "check_finite=True, subset_by_index=None, subset_by_value=None, driver=None",
       "scipy_eigvalsh_vjp(g, a, b, lower, type, subset_by_index, subset_by_value)", NONE,
       None, None, None, None, None, None, None, None,
       jvp="scipy_eigvalsh_jvp(t_a, a, b, lower, type, subset_by_index, subset_by_value)")
