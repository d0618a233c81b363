"""A sort's cotangent helper differentiated (hvp forward over reverse runs forward mode
over a flat gradient calling permutation_vjp; sort_second.py registers its rule).

permutation_vjp(g, ans, a, axis) places g[dst[j]] at out[src[j]] (src, dst: stable
argsorts of a and ans): linear in g, and a and ans move it only through argsorts, which
are locally constant (zero derivative, like np.argsort's). Its cotangent for h takes
h[src[j]] back to dst[j].
"""
import numpy as np

from ..registry import template_helper
from .shape_helpers import cot_dtype


@template_helper
def permutation_vjp_vjp(h, g, ans, a, axis):
    """The cotangent of g in permutation_vjp(g, ans, a, axis) for the cotangent h of its
    output (shaped like a)."""
    a = np.asarray(a)
    if axis is None:
        a, axis = a.ravel(), -1
    src = np.argsort(a, axis=axis, kind="stable")
    dst = np.argsort(ans, axis=axis, kind="stable")
    out = np.zeros(np.shape(g), dtype=cot_dtype(h, np.asarray(g)))
    np.put_along_axis(out, dst, np.take_along_axis(np.reshape(h, a.shape), src, axis), axis)
    return out
