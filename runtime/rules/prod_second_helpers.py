"""np.prod's second derivative (session 34, red): its JVP term calls prod_vjp (the
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
    """Tangent of prod_vjp(slopes_g, a, axis, keepdims) along a's tangent t."""
    a, order, kept, flat, g = _parts(slopes_g, a, axis)
    t = _flat(np.broadcast_to(np.asarray(t), a.shape), order, kept)
    return _unflat(g * np.einsum("...ik,...k->...i", _pairs(flat), t), a, order)
