"""Template helpers for runtime/rules/ufunc_outer.py: ufunc.outer through the ufunc's
own elementwise rule.

f.outer(A, B) is f(A[..., None, ..., None], B), the expanded A broadcasting against B:
the elementwise rule's templates at A and B spread over the outer shape (outer_spread)
give the outer product's tangents, and summed back over the other operand's axes
(outer_spread_sum) its cotangents.
"""
import numpy as np

from ..registry import template_helper


@template_helper(pure=True)
def outer_spread(v, A, B, operand):
    """v (A's shape for operand 0, B's for operand 1: an operand or its tangent) spread
    over ufunc.outer(A, B)'s shape A.shape + B.shape: A's entries along the leading
    axes, B's along the trailing ones. Linear in v (A and B give shapes only)."""
    v = np.asarray(v)
    if operand == 0:
        v = np.reshape(v, v.shape + (1,) * np.ndim(B))
    return np.broadcast_to(v, np.shape(A) + np.shape(B))


@template_helper(pure=True)
def outer_spread_sum(total, A, B, operand):
    """outer_spread's transpose: total (the outer shape, or broadcasting to it) summed
    over the other operand's axes (B's trailing ones for operand 0, A's leading ones
    for operand 1)."""
    a, b = np.ndim(A), np.ndim(B)
    total = np.broadcast_to(total, np.shape(A) + np.shape(B))
    return np.sum(total, axis=tuple(range(a, a + b)) if operand == 0 else tuple(range(a)))
