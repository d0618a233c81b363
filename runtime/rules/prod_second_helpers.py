"""Second derivatives of rules whose JVP terms call helpers (session 34, red): np.prod's
and np.linalg.cholesky's. np.prod's JVP term calls prod_vjp (the
slopes: each entry's product of the others), so hvp, hessian and grad of grad run
reverse mode over prod_vjp. With P[i, k] = the product of the entries other than i and
k along the reduced axes (0 on the diagonal; no division, so zeros are exact):

    prod_vjp(g, a)_i = g * others_i        d others_i = sum_k P[i, k] da_k
"""
import numpy as np

from ..registry import template_helper
from ..thunks import unthunk
from .reductions_helpers import _axes, _keepdims_shape, prod_vjp
from .shape_helpers import as_cotangent


def _layout(a, axis):
    """(order, kept shape): the reduced axes moved last and flattened into one."""
    axes = _axes(axis, a.ndim)
    kept = [k for k in range(a.ndim) if k not in axes]
    return kept + list(axes), [a.shape[k] for k in kept]


def _flat(x, order, kept):
    return np.transpose(x, order).reshape(kept + [-1])


def _unflat(x, a, order):
    return np.transpose(x.reshape([a.shape[k] for k in order]), np.argsort(order))


def _pairs(flat):
    """P[..., i, k]: the product of the entries other than i and k (0 where i == k)."""
    n = flat.shape[-1]
    out = np.zeros(flat.shape + (n,), flat.dtype)
    for k in range(n):
        held = flat.copy()
        held[..., k] = 1
        out[..., :, k] = prod_vjp(np.ones(held.shape[:-1]), held, -1, False)
        out[..., k, k] = 0
    return out


def _parts(slopes_g, a, axis):
    a = np.asarray(a)
    order, kept = _layout(a, axis)
    shape = _keepdims_shape(a.shape, _axes(axis, a.ndim))
    g = np.broadcast_to(np.reshape(as_cotangent(unthunk(slopes_g), a), shape), a.shape)
    return a, order, kept, _flat(a, order, kept), _flat(g, order, kept)


@template_helper
def prod_vjp_vjp(cot, slopes_g, a, axis, keepdims, part):
    """Cotangent of slopes_g (part 0) or a (part 1) in prod_vjp(slopes_g, a, axis, ...)."""
    a, order, kept, flat, g = _parts(slopes_g, a, axis)
    cot = _flat(np.broadcast_to(np.asarray(unthunk(cot)), a.shape), order, kept)
    if part == 0:
        ones = np.ones(_keepdims_shape(a.shape, _axes(axis, a.ndim)))
        others = _flat(prod_vjp(ones, a, axis, True), order, kept)
        summed = np.sum(cot * others, axis=-1)
        if np.size(summed) != np.size(slopes_g):        # a number spread over the lines
            summed = np.sum(summed)
        summed = np.reshape(summed, np.shape(slopes_g))
        return summed if isinstance(slopes_g, np.ndarray) else summed[()]
    moved = np.einsum("...i,...ik->...k", cot * g, _pairs(flat))
    return _unflat(moved, a, order)


@template_helper
def prod_vjp_jvp(t, slopes_g, a, axis, keepdims):
    """Tangent of prod_vjp(slopes_g, a, axis, keepdims) along a's tangent t:
    g sum_(k != i) t_k prod_(j != i, k) a_j, the k-th term the others' products with a_k
    replaced by t_k (multilinear; no division, so zeros are exact). Plain NumPy over
    prod_vjp, so reverse mode takes it from its source (third order)."""
    a = np.asarray(a)
    order, kept = _layout(a, axis)
    shape = _keepdims_shape(a.shape, _axes(axis, a.ndim))
    g = np.reshape(as_cotangent(unthunk(slopes_g), a), shape)
    g = _flat(np.broadcast_to(g, a.shape), order, kept)
    flat = _flat(a, order, kept)
    t = _flat(np.broadcast_to(np.asarray(t), a.shape), order, kept)
    eye = np.eye(flat.shape[-1], dtype=bool)
    swapped = np.where(eye, t[..., None, :], flat[..., None, :])     # row k: a_k := t_k
    others = prod_vjp(np.ones(swapped.shape[:-1]), swapped, -1, False)     # [..., k, i]
    return _unflat(g * np.sum(np.where(eye, 0, others), axis=-2), a, order)


# cholesky's tangent dL = L Phi(M), M = L^-1 sym(t) L^-T (forward_linalg_helpers.py),
# differentiated (session 34, red): Phi (the lower triangle, diagonal halved) is
# self-adjoint, so with P = Phi(L^T G): t's cotangent sym(L^-T P L^-1) and L's
# G Phi(M)^T - L^-T (P + P^T) M; an upper factor is L^T throughout.
def _phi(x):
    return np.tril(x) - x * np.eye(x.shape[-1]) / 2


def _chol_parts(t, ans, upper):
    L = np.swapaxes(ans, -1, -2) if upper else np.asarray(ans)
    sym = (t + np.swapaxes(t, -1, -2)) / 2
    M = np.linalg.solve(L, np.swapaxes(np.linalg.solve(L, sym), -1, -2))
    return L, M


def _upper(x, upper):
    return np.swapaxes(x, -1, -2) if upper else x


@template_helper
def cholesky_jvp_vjp(cot, t, ans, upper, part):
    """Cotangent of t (part 0) or ans (part 1) in cholesky_jvp(t, ans, upper)."""
    L, M = _chol_parts(t, ans, upper)
    G = _upper(np.asarray(unthunk(cot)), upper)
    P = _phi(np.swapaxes(L, -1, -2) @ G)
    LT = np.swapaxes(L, -1, -2)
    if part == 0:
        inner = np.linalg.solve(LT, np.swapaxes(np.linalg.solve(LT, np.swapaxes(P, -1, -2)),
                                                -1, -2))
        return (inner + np.swapaxes(inner, -1, -2)) / 2
    moved = G @ np.swapaxes(_phi(M), -1, -2) - \
        np.linalg.solve(LT, (P + np.swapaxes(P, -1, -2)) @ M)
    return _upper(moved, upper)     # whole: cholesky's VJP reads only the factor's triangle


@template_helper
def cholesky_jvp_jvp(t, t_ans, ans, upper):
    """Tangent of cholesky_jvp(t, ans, upper) along ans's tangent t_ans (t held)."""
    L, M = _chol_parts(t, ans, upper)
    dL = _upper(np.asarray(t_ans), upper)
    LdLM = np.linalg.solve(L, dL @ M)
    dM = -LdLM - np.swapaxes(LdLM, -1, -2)
    return _upper(dL @ _phi(M) + L @ _phi(dM), upper)
