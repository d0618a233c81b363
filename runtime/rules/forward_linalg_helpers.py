"""Forward-mode (JVP) helpers for the decompositions (docs/forward.md): the tangents of
cholesky, eigh, svd, qr, eig and lstsq, real and stacked in the last two axes, with the
limits of their VJPs (decompositions_helpers.py, factorizations_helpers.py). A
symmetric-input function's tangent is taken in the symmetric matrices, as its cotangent
is: the tangent's symmetric part. Formulas: Giles (2008), Murray (2016), Townsend (2016).
"""
import numpy as np

from ..complex_safety import RuleRefused
from ..registry import template_helper
from .decompositions_helpers import _inverse_gaps, mT
from .forward_helpers import pinv_jvp, svdvals_jvp


def _sym(t):
    return (t + mT(t)) / 2


def _diagonal(x):
    return np.diagonal(x, axis1=-2, axis2=-1)


@template_helper
def cholesky_jvp(t, ans_l, upper):
    """dL = L Phi(L^-1 dA L^-T), Phi the lower triangle with its diagonal halved."""
    L = mT(ans_l) if upper else ans_l
    inner = np.linalg.solve(L, mT(np.linalg.solve(L, _sym(t))))
    dL = L @ (np.tril(inner) - inner * np.eye(inner.shape[-1]) / 2)
    return mT(dL) if upper else dL


@template_helper
def eigh_jvp(t, ans):
    """dw = diag(V^T dA V), dV = V (F o V^T dA V) with F_ij = 1 / (w_j - w_i); V may be
    b-orthonormal (scipy.linalg.eigh(a, b), b held)."""
    w, v = ans
    inner = mT(v) @ _sym(t) @ v
    return _diagonal(inner), v @ (_inverse_gaps(w) * inner)


@template_helper
def eigvalsh_jvp(t, a, UPLO="L"):
    """The eigenvalues' part of eigh's tangent."""
    return eigh_jvp(t, np.linalg.eigh(a, UPLO))[0]


@template_helper
def svd_jvp(t, ans, a, full_matrices, compute_uv, hermitian=False):
    """Townsend (2016): with P = U^T dA V, dS = diag(P), and dU, dV the rotations
    F o (P S + S P^T) (F_ij = 1 / (s_j^2 - s_i^2)) plus the parts outside U's and V's
    spans. svd_vjp's limits: not hermitian, thin (or square), distinct nonzero s."""
    if hermitian or full_matrices and compute_uv and np.shape(a)[-1] != np.shape(a)[-2]:
        raise RuleRefused("svd's forward rule takes hermitian=False and the thin "
                                  "SVD (full_matrices=False) of a non-square matrix")
    if not compute_uv:
        return svdvals_jvp(t, a)
    u, s, vh = ans
    v, F = mT(vh), _inverse_gaps(s ** 2)
    P, s_row, s_col = mT(u) @ t @ v, np.expand_dims(s, -2), np.expand_dims(s, -1)
    du = u @ (F * (P * s_row + s_col * mT(P))) + (t @ v - u @ P) / s_row
    dv = v @ (F * (s_col * P + mT(P) * s_row)) + (mT(t) @ u - v @ mT(P)) / s_row
    return du, _diagonal(P), mT(dv)


def _qr_tall(t, Q, R):
    """A = QR, m >= n: X = Q^T dA R^-1, Omega the antisymmetric matrix with X's strict
    lower triangle; dQ = Q Omega + (I - Q Q^T) dA R^-1, dR = (X - Omega) R."""
    right = mT(np.linalg.solve(mT(R), mT(t)))                       # dA R^-1
    X = mT(Q) @ right
    omega = np.tril(X, -1) - mT(np.tril(X, -1))
    return Q @ omega + right - Q @ X, (X - omega) @ R


@template_helper
def qr_jvp(t, ans, a, mode):
    """np.linalg.qr(a, 'reduced'); a wide A = Q [U V] is split: U's columns as a square
    QR, and V's R = Q^T V."""
    if mode != "reduced":
        raise RuleRefused(f"np.linalg.qr's forward rule takes mode='reduced' only, "
                                  f"not {mode!r}")
    Q, R = ans
    m, n = np.shape(a)[-2:]
    if m >= n:
        return _qr_tall(t, Q, R)
    dQ, dU = _qr_tall(t[..., :m], Q, R[..., :m])
    rest = mT(dQ) @ np.asarray(a)[..., m:] + mT(Q) @ t[..., m:]
    return dQ, np.concatenate([dU, rest], axis=-1)


@template_helper
def eig_jvp(t, ans):
    """Real distinct eigenvalues: C = V^-1 dA V, dw = diag(C), dV = V (F o C) (F_ij =
    1 / (w_j - w_i)) less each column's part along itself (unit-norm eigenvectors)."""
    w, V = ans
    if np.iscomplexobj(w):
        raise RuleRefused("np.linalg.eig's forward rule needs a real spectrum")
    C = np.linalg.solve(V, t @ V)
    dV = V @ (_inverse_gaps(w) * C)
    return _diagonal(C), dV - V * np.sum(V * dV, axis=-2, keepdims=True)


@template_helper
def eigvals_jvp(t, a):
    """The eigenvalues' part of eig's tangent."""
    return eig_jvp(t, np.linalg.eig(a))[0]


@template_helper
def lstsq_jvp(t, ans, a, b, operand):
    """(dx, d residuals, None, ds) of np.linalg.lstsq from a (operand 0) or b (1), a of
    full rank: x = pinv(a) b, |b - a x|^2 moves by 2 e . (db - da x) (e = b - a x; x's
    own move does not change it to first order), s by the SVD's rule (None: SciPy's gelsy)."""
    x, residuals, rank, s = ans
    if np.any(np.asarray(rank) < min(np.shape(a)[-2:])):
        raise RuleRefused("np.linalg.lstsq's forward rule needs a full-rank matrix")
    a, b = np.asarray(a), np.asarray(b)
    X, B = (x[:, None], b[:, None]) if b.ndim == 1 else (x, b)
    T = t[:, None] if operand == 1 and b.ndim == 1 else t
    pinv = np.linalg.pinv(a)
    dX = pinv_jvp(T, pinv, a) @ B if operand == 0 else pinv @ T
    move = -(T @ X) if operand == 0 else T
    dres = 2 * np.sum((B - a @ X) * move, axis=0) if np.size(residuals) else residuals * 0
    ds = None if s is None else svdvals_jvp(T, a) if operand == 0 else s * 0
    return dX.reshape(np.shape(x)), dres.reshape(np.shape(residuals)), None, ds
