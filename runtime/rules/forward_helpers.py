"""Helpers for the forward-mode (JVP) templates (runtime/jvp.py, docs/forward.md)."""
import numpy as np

from ..registry import template_helper


@template_helper(pure=True)
def zero_fill(kwargs):
    """np.pad's keywords for padding a tangent: a constant pad holds no tangent."""
    return {k: v for k, v in kwargs.items() if k != "constant_values"}


@template_helper(pure=True)
def zero_ends(prepend, append):
    """np.diff's keywords for a tangent: values joined at either end are held (zero)."""
    ends = {"prepend": prepend, "append": append}
    return {k: 0 * np.asarray(v) for k, v in ends.items() if v is not None}


@template_helper(pure=True)
def reduce_jvp(slopes, t, axis, keepdims=False):
    """The tangent of a reduction along `axis`: each output's slopes (the cotangent of
    its inputs for a cotangent of ones) against its inputs' tangents."""
    return np.sum(slopes * t, axis=axis, keepdims=keepdims)
