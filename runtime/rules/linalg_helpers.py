"""Template helpers for products: dot, tensordot, einsum, kron, cross, multi_dot.

Every product here is linear in each operand, so the cotangent of one operand
is the same kind of product of `g` with the other operands, contracted over
the output's free axes and laid out like the operand.
"""
import numpy as np

from ..registry import template_helper
from .shape_helpers import cot_dtype, sum_to_shape


def _tensordot_axes(axes, a_nd, b_nd):
    """np.tensordot's `axes` as two lists of non-negative, paired axes."""
    if isinstance(axes, (int, np.integer)):
        return list(range(a_nd - axes, a_nd)), list(range(axes))
    a_axes, b_axes = axes
    a_axes = [a_axes] if isinstance(a_axes, (int, np.integer)) else list(a_axes)
    b_axes = [b_axes] if isinstance(b_axes, (int, np.integer)) else list(b_axes)
    return [k % a_nd for k in a_axes], [k % b_nd for k in b_axes]


@template_helper
def tensordot_vjp(g, a, b, axes, operand):
    """Cotangent of operand 0 (`a`) or 1 (`b`) of np.tensordot(a, b, axes)."""
    a_nd, b_nd = np.ndim(a), np.ndim(b)
    a_axes, b_axes = _tensordot_axes(axes, a_nd, b_nd)
    a_free = [k for k in range(a_nd) if k not in a_axes]
    b_free = [k for k in range(b_nd) if k not in b_axes]
    g_of_a = list(range(len(a_free)))
    g_of_b = list(range(len(a_free), np.ndim(g)))
    if operand == 0:
        # result axes: a's free axes, then b's contracted axes in b's order
        cot = np.tensordot(g, b, axes=(g_of_b, b_free))
        layout = a_free + [a_axes[b_axes.index(k)] for k in sorted(b_axes)]
    else:
        cot = np.tensordot(a, g, axes=(a_free, g_of_a))
        layout = [b_axes[a_axes.index(k)] for k in sorted(a_axes)] + b_free
    return np.transpose(cot, np.argsort(layout))


@template_helper
def dot_vjp(slopes, a, b, operand):
    """Cotangent of np.dot: a product with a scalar, else a tensordot of a's last
    axis with b's second-to-last (its only axis when b is 1-D)."""
    if np.ndim(a) == 0 or np.ndim(b) == 0:
        x, other = (a, b) if operand == 0 else (b, a)
        return sum_to_shape(slopes * other, np.shape(x)) if np.ndim(x) == 0 else slopes * other
    axes = ([np.ndim(a) - 1], [max(np.ndim(b) - 2, 0)])
    return tensordot_vjp(slopes, a, b, axes, operand)


@template_helper
def inner_vjp(g, a, b, operand):
    """Cotangent of np.inner: a tensordot over both last axes (or a scalar product)."""
    if np.ndim(a) == 0 or np.ndim(b) == 0:
        return dot_vjp(g, a, b, operand)
    return tensordot_vjp(g, a, b, ([np.ndim(a) - 1], [np.ndim(b) - 1]), operand)


@template_helper
def kron_vjp(g, a, b, operand):
    """Cotangent of np.kron: view `g` as interleaved (a-axis, b-axis) pairs and contract."""
    nd = max(np.ndim(a), np.ndim(b))
    sa = (1,) * (nd - np.ndim(a)) + np.shape(a)
    sb = (1,) * (nd - np.ndim(b)) + np.shape(b)
    g = np.reshape(g, [n for pair in zip(sa, sb) for n in pair])
    if operand == 0:
        cot = np.tensordot(g, np.reshape(b, sb), axes=(list(range(1, 2 * nd, 2)), list(range(nd))))
        return cot.reshape(np.shape(a))
    cot = np.tensordot(g, np.reshape(a, sa), axes=(list(range(0, 2 * nd, 2)), list(range(nd))))
    return cot.reshape(np.shape(b))


@template_helper
def cross_vjp(g, a, b, axisa, axisb, axisc, axis, operand):
    """Cotangent of np.cross of 3-vectors: b x g for a, g x a for b (then unbroadcast)."""
    if axis is not None:
        axisa = axisb = axisc = axis
    g = np.moveaxis(g, axisc, -1)
    a_last, b_last = np.moveaxis(a, axisa, -1), np.moveaxis(b, axisb, -1)
    if operand == 0:
        return np.moveaxis(sum_to_shape(np.cross(b_last, g), a_last.shape), -1, axisa)
    return np.moveaxis(sum_to_shape(np.cross(g, a_last), b_last.shape), -1, axisb)


@template_helper
def vecdot_vjp(g, other, x, axis):
    """Cotangent of `x` in np.vecdot (real): `g` times the other vector, unbroadcast."""
    cot = np.moveaxis(np.expand_dims(g, -1) * np.moveaxis(other, axis, -1), -1, axis)
    return sum_to_shape(cot, np.shape(x))


@template_helper
def multi_dot_vjp(g, arrays):
    """Cotangent of np.linalg.multi_dot: for each factor, left^T g right^T.

    A 1-D first factor acts as a row and a 1-D last factor as a column.
    """
    mats = [np.asarray(m) for m in arrays]
    mats[0] = np.atleast_2d(mats[0])
    mats[-1] = mats[-1].reshape(-1, 1) if mats[-1].ndim == 1 else mats[-1]
    g = np.reshape(g, (mats[0].shape[0], mats[-1].shape[1]))
    lefts = [None, mats[0]]  # lefts[k]: the product of the factors before k
    for m in mats[1:-1]:
        lefts.append(lefts[-1] @ m)
    cots, right = [None] * len(mats), g
    for k in reversed(range(len(mats))):
        cot = right if k == 0 else lefts[k].T @ right
        cots[k] = cot.reshape(np.shape(arrays[k]))
        right = right @ mats[k].T
    return list(cots) if isinstance(arrays, list) else tuple(cots)


@template_helper
def diag_vjp(slopes, v, k):
    """Cotangent of np.diag: the diagonal of `g` (1-D v) or `g` on the diagonal (2-D v)."""
    if np.ndim(v) == 1:
        return np.diagonal(slopes, k)
    out = np.zeros(np.shape(v), dtype=cot_dtype(slopes, v))
    rows = np.arange(np.shape(slopes)[0]) + max(-k, 0)
    out[rows, rows + k] = slopes
    return out
