"""np.linalg.det's derivatives at every matrix, singular ones included (session 40).

det's gradient is the cofactor matrix C(a) = adj(a)^T, and its derivative the cofactor's,
both polynomials in a, defined at every matrix. A well-conditioned matrix takes the
inverse's route (C = det(a) inv(a)^T); one whose inverse fails or is ill-conditioned
(1-norm condition number above _ROBUST_CONDITION, decided per matrix of a stack) takes
the SVD's route, exact at singular matrices: with a = U S Vh, adj is multiplicative and
adj(U) = det(U) U^H for a unitary U, so C(a) = det(U) det(Vh) conj(U) C(S) conj(Vh),
C(S) diagonal with entries prod_{j != i} s_j. The cofactor's tangent in direction E at S
(F = U^H E Vh^H, p_ik = prod_{j != i, k} s_j): dC_ii = sum_{k != i} p_ik F_kk and
dC_ik = -p_ik F_ki (i != k). det's Hessian is a symmetric bilinear form, so the
cofactor's cotangent is its tangent at the cotangent (cofactor_jvp(a, g)). det's third
derivative (cofactor_second) takes the inverse's route only and refuses singular matrices.
"""
import numpy as np

from ..registry import template_helper

_ROBUST_CONDITION = 1e6


def _split(a):
    """(a as an inexact array, its inverse, a boolean mask of the matrices needing the
    robust route); the inverse's entries for those are not used."""
    a = np.asarray(a)
    a = a if np.issubdtype(a.dtype, np.inexact) else a.astype(float)
    if a.shape[-1] == 0:
        return a, a, np.zeros(a.shape[:-2], bool)
    try:
        inverse = np.linalg.inv(a)
    except np.linalg.LinAlgError:       # one singular matrix fails the whole stack's inverse
        return a, None, np.ones(a.shape[:-2], bool)
    norm = lambda m: np.max(np.sum(np.abs(m), axis=-2), axis=-1)     # noqa: E731
    with np.errstate(invalid="ignore", over="ignore"):
        condition = norm(a) * norm(inverse)
    return a, inverse, ~(condition < _threshold(a.dtype))      # (nan, inf: robust)


def _threshold(dtype):
    """The largest condition number the inverse's route takes: its relative error is
    about condition * eps (float64: 1e6, float32: about 290)."""
    return min(_ROBUST_CONDITION, 0.1 / np.sqrt(np.finfo(dtype).eps))


def _svd_parts(a):
    """(det(U) det(Vh) conj(U), s, conj(Vh), U, Vh) of a stack of matrices."""
    u, s, vh = np.linalg.svd(a)
    phase = np.linalg.det(u) * np.linalg.det(vh)
    return phase[..., None, None] * u.conj(), s, vh.conj(), u, vh


def _products_without(s, count):
    """prod_{j != i} s_j (count 1, shape (..., n)) or prod_{j != i, k} s_j (count 2,
    shape (..., n, n), the diagonal unused), by masks: no division by a zero s_j."""
    n = s.shape[-1]
    eye = np.eye(n, dtype=bool)
    if count == 1:
        return np.prod(np.where(eye, 1, s[..., None, :]), axis=-1)
    drop = eye[:, None, :] | eye[None, :, :]                 # (i, k, j): j == i or j == k
    return np.prod(np.where(drop, 1, s[..., None, None, :]), axis=-1)


def _robust_cofactor(a):
    left, s, right, _, _ = _svd_parts(a)
    return (left * _products_without(s, 1)[..., None, :]) @ right


def _robust_cofactor_jvp(a, e):
    left, s, right, u, vh = _svd_parts(a)
    f = np.swapaxes(u.conj(), -1, -2) @ e @ np.swapaxes(vh.conj(), -1, -2)
    p = _products_without(s, 2)
    n = s.shape[-1]
    diagonal = np.diagonal(f, axis1=-2, axis2=-1)
    inner = -p * np.swapaxes(f, -1, -2) * ~np.eye(n, dtype=bool)
    inner = inner + np.eye(n, dtype=bool) * np.sum(np.where(np.eye(n, dtype=bool), 0, p) *
                                       diagonal[..., None, :], axis=-1)[..., None]
    return left @ inner @ right


def _merged(fast, robust, a, rows, dtype):
    """fast's matrices (None: none), those of `rows` replaced by robust(a[rows])."""
    if not rows.any():
        return fast
    out = np.zeros(a.shape, dtype) if fast is None else np.array(fast, dtype=dtype)
    out[rows] = robust(a[rows])
    return out


@template_helper
def cofactor(a):
    """The cofactor matrix adj(a)^T of a stack of square matrices: det's gradient."""
    a, inverse, rows = _split(a)
    if a.shape[-1] == 0:
        return a.copy()
    fast = None if inverse is None else \
        np.linalg.det(a)[..., None, None] * np.swapaxes(inverse, -1, -2)
    return _merged(fast, _robust_cofactor, a, rows, a.dtype)


@template_helper
def cofactor_jvp(a, e):
    """The tangent of cofactor(a) in direction e (also cofactor's cotangent at e)."""
    a, inverse, rows = _split(a)
    e = np.broadcast_to(e, a.shape)
    if a.shape[-1] == 0:
        return np.zeros(a.shape, np.result_type(a, e))
    fast = None
    if inverse is not None:
        moved = inverse @ e
        det = np.linalg.det(a)[..., None, None]
        trace = np.trace(moved, axis1=-2, axis2=-1)[..., None, None]
        fast = det * (trace * np.swapaxes(inverse, -1, -2) - np.swapaxes(moved @ inverse, -1, -2))
    robust = lambda m: _robust_cofactor_jvp(m, e[rows])     # noqa: E731
    return _merged(fast, robust, a, rows, np.result_type(a, e))


@template_helper
def cofactor_second(a, e, f):
    """d/da <f, cofactor_jvp(a, e)> (det's third derivative along e and f, symmetric in
    them): the inverse's route only; a singular or ill-conditioned matrix is refused."""
    a, inverse, rows = _split(a)
    if a.shape[-1] == 0:
        return np.zeros(a.shape, np.result_type(a, e, f))
    if inverse is None or rows.any():
        raise np.linalg.LinAlgError(
            "np.linalg.det's third derivative is implemented at well-conditioned matrices "
            "only (runtime/rules/det_helpers.py); this matrix is singular or nearly so")
    be, bf = inverse @ e, inverse @ f
    te, tf = (np.trace(m, axis1=-2, axis2=-1)[..., None, None] for m in (be, bf))
    tef = np.trace(be @ bf, axis1=-2, axis2=-1)[..., None, None]
    inner = (te * tf - tef) * inverse - tf * (be @ inverse) - te * (bf @ inverse) + \
        (be @ bf + bf @ be) @ inverse
    return np.linalg.det(a)[..., None, None] * np.swapaxes(inner, -1, -2)
