"""Template helpers for runtime/rules/factorizations.py: np.linalg.qr, lstsq, eig and
eigvals (real matrices, stacked in the last two axes)."""
import numpy as np

from ..complex_safety import RuleRefused
from ..registry import template_helper
from .decompositions_helpers import mT, pinv_vjp, svd_vjp
from .shape_helpers import cot_dtype


def _parts(g, count):
    """The cotangents of a tuple result's `count` parts: a tuple or list of them, or an
    array stacking them (`np.sum(np.linalg.qr(a))` of a square a); None is all zero."""
    return (None,) * count if g is None else tuple(g)


def _zero_or(g, like):
    return np.zeros_like(like) if g is None else np.asarray(g)


def _copy_lower_to_upper(M):
    lower = np.tril(M, -1)
    return lower + mT(lower) + M * np.eye(M.shape[-1], dtype=M.dtype)


def _qr_tall(gQ, gR, Q, R):
    """dA for A = QR with A (m x n), m >= n, full rank: (gQ + Q copyltu(M)) R^-T with
    M = R gR^T - gQ^T Q (the Householder QR is smooth there)."""
    M = R @ mT(gR) - mT(gQ) @ Q
    b = gQ + Q @ _copy_lower_to_upper(M)
    return mT(np.linalg.solve(R, mT(b)))          # b R^-T, R square upper triangular


@template_helper(pure=True)
def qr_vjp(g, ans, a, mode):
    """Cotangent of np.linalg.qr(a, mode='reduced'); a wide matrix A = Q [U V] is
    split: gY = Q gV and the square part sees gQ + Y gV^T."""
    if mode != "reduced":
        raise RuleRefused(f"np.linalg.qr's rule takes mode='reduced' only, not "
                                  f"{mode!r}")
    a = np.asarray(a)
    Q, R = ans
    gQ, gR = _parts(g, 2)
    gQ, gR = _zero_or(gQ, Q), _zero_or(gR, R)
    m, n = a.shape[-2:]
    if m >= n:
        return _qr_tall(gQ, gR, Q, R)
    U, gU, gV = R[..., :m], gR[..., :m], gR[..., m:]
    Y = a[..., m:]
    gX = _qr_tall(gQ + Y @ mT(gV), gU, Q, U)
    return np.concatenate([gX, Q @ gV], axis=-1)


def _full_rank(a, rank):
    if np.any(np.asarray(rank) < min(np.shape(a)[-2:])):
        raise RuleRefused("np.linalg.lstsq's rule needs a full-rank matrix "
                                  f"(rank {rank} of a {np.shape(a)} matrix)")


@template_helper(pure=True)
def lstsq_vjp(g, ans, a, b, rcond, operand):
    """Cotangent of a (operand 0) or b (operand 1) of np.linalg.lstsq for a full-rank a:
    x = pinv(a) b; the residuals |b - a x|^2 have slope -2 e x^T in a and 2 e in b
    (e = b - a x; the x that minimises them moves without changing them to first
    order); the singular values go through the SVD's rule."""
    x, residuals, rank, s = ans
    _full_rank(a, rank)
    gx, gres, _, gs = _parts(g, 4)
    a, b = np.asarray(a), np.asarray(b)
    vector = b.ndim == 1
    X, B = (x[:, None], b[:, None]) if vector else (x, b)
    pinv = np.linalg.pinv(a)
    cot = np.zeros(a.shape if operand == 0 else b.shape, dtype=np.result_type(a, b, 1.0))
    if gx is not None:
        GX = np.asarray(gx)[:, None] if vector else np.asarray(gx)
        cot = cot + (pinv_vjp(GX @ mT(B), pinv, a, False) if operand == 0 else
                     (mT(pinv) @ GX).reshape(b.shape))
    if gres is not None and np.size(residuals):
        e = (B - a @ X) * 2 * np.asarray(gres)
        cot = cot + (-(e @ mT(X)) if operand == 0 else e.reshape(b.shape))
    if gs is not None and operand == 0:
        cot = cot + svd_vjp(gs, s, a, False, False)
    return cot.astype(cot_dtype(1.0, (a, b)[operand]))


def _real_spectrum(w):
    if np.iscomplexobj(w):
        raise RuleRefused("np.linalg.eig's rule needs a real matrix with a real "
                                  "spectrum; this one has complex eigenvalues")


@template_helper(pure=True)
def eig_vjp(g, ans, a):
    """Cotangent of np.linalg.eig for a real matrix with real, distinct eigenvalues
    (unit-norm eigenvectors, as NumPy returns them):
    V^-T (diag(gw) + (V^T gV - V^T V diag(V^T gV)) / E) V^T, E_ij = w_j - w_i."""
    w, V = ans
    _real_spectrum(w)
    gw, gV = _parts(g, 2)
    inner = np.zeros(V.shape, dtype=np.result_type(V, 1.0))
    if gV is not None:
        VtgV = mT(V) @ gV
        along = np.einsum("...ii->...i", VtgV)
        inner = VtgV - mT(V) @ (V * np.expand_dims(along, -2))
        gaps = np.expand_dims(w, -2) - np.expand_dims(w, -1)
        eye = np.eye(w.shape[-1], dtype=bool)
        inner = np.where(eye, 0, inner / np.where(eye, 1, gaps))
    if gw is not None:
        inner = inner + np.expand_dims(gw, -1) * np.eye(w.shape[-1], dtype=inner.dtype)
    return np.linalg.solve(mT(V), inner @ mT(V)).astype(cot_dtype(1.0, a))


@template_helper(pure=True)
def eigvals_vjp(g, a):
    """Cotangent of np.linalg.eigvals: eig's with no eigenvector cotangent."""
    return eig_vjp((g, None), np.linalg.eig(a), a)
