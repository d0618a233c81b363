"""Helpers for the forward-mode (JVP) templates (runtime/jvp.py, docs/forward.md)."""
import numpy as np

from ..complex_safety import RuleRefused
from ..jvp import add_tangents
from ..registry import lookup, template_helper


@template_helper
def zero_fill(kwargs):
    """np.pad's keywords for padding a tangent: a constant pad holds no tangent."""
    return {k: v for k, v in kwargs.items() if k != "constant_values"}


_LINEAR_PAD_MODES = ("constant", "edge", "reflect", "symmetric", "wrap", "mean", "linear_ramp")


@template_helper
def pad_tangent(t, pad_width, mode, kwargs):
    """np.pad's tangent: t padded the same way, the constants held (zero constant_values
    and end_values). A mode that picks values (maximum, minimum, median), `empty` and a
    function are not linear copies: refused (session 38: they gave wrong tangents)."""
    if mode not in _LINEAR_PAD_MODES:
        raise RuleRefused(f"np.pad mode {mode!r} has no forward-mode rule (its padding "
                          "is not a linear copy). Instead: pad with mode='edge' or "
                          "'constant', or build the padding with np.concatenate")
    kwargs = zero_fill(kwargs or {})
    if "end_values" in kwargs:
        kwargs["end_values"] = 0
    return np.pad(t, pad_width, mode, **kwargs)


@template_helper
def zero_ends(prepend, append):
    """np.diff's keywords for a tangent: values joined at either end are held (zero)."""
    ends = {"prepend": prepend, "append": append}
    return {k: 0 * np.asarray(v) for k, v in ends.items() if v is not None}


@template_helper
def diff_jvp(t, n, axis, prepend, append):
    """np.diff's tangent: the differences of t, the values joined at either end held
    (a function, not a `**` spread, so reverse mode can take it: hvp over np.diff)."""
    return np.diff(t, n, axis, **zero_ends(prepend, append))


@template_helper
def reduce_jvp(slopes, t, axis, keepdims=False):
    """The tangent of a reduction along `axis`: each output's slopes (the cotangent of
    its inputs for a cotangent of ones) against its inputs' tangents."""
    return np.sum(slopes * t, axis=axis, keepdims=keepdims)


@template_helper
def multi_dot_jvp(tangents, arrays):
    """The tangent of np.linalg.multi_dot(arrays): the product with each factor in turn
    replaced by its tangent, summed (the product is linear in each factor)."""
    arrays = list(arrays)
    return sum(np.linalg.multi_dot(arrays[:k] + [t] + arrays[k + 1:])
               for k, t in enumerate(tangents))


@template_helper
def matrix_power_jvp(t, a, n):
    """The tangent of a^n: sum of a^k t a^(n-1-k); a negative n through inv(a), whose
    tangent is -inv(a) t inv(a)."""
    if n < 0:
        a = np.linalg.inv(a)
        t, n = -(a @ t @ a), -n
    power = np.linalg.matrix_power
    return sum((power(a, k) @ t @ power(a, n - 1 - k) for k in range(n)), 0 * a)


@template_helper
def pinv_jvp(t, ans, a):
    """The tangent of pinv(a) at a locally constant rank (Golub and Pereyra)."""
    p, tT = ans, np.swapaxes(t, -1, -2)
    pT = np.swapaxes(p, -1, -2)
    rows, cols = np.eye(np.shape(a)[-2]), np.eye(np.shape(a)[-1])
    return -p @ t @ p + p @ pT @ tT @ (rows - a @ p) + (cols - p @ a) @ tT @ pT @ p


@template_helper
def svdvals_jvp(t, x):
    """The tangent of the singular values: d s_i = u_i^T t v_i (distinct values)."""
    u, _, vh = np.linalg.svd(x, full_matrices=False)
    return np.einsum("...ji,...jk,...ik->...i", u, t, vh)


@template_helper
def permuted_jvp(t, order, axis):
    """The tangent of a sort along `axis` (None: flattened) in the order `order`."""
    if axis is None:
        return np.ravel(t)[order]
    return np.take_along_axis(t, order, axis)


@template_helper
def cumprod_jvp(t, a, axis, include_initial=False):
    """The tangent of np.cumprod along `axis` (None: flattened), exact with zeros: the
    running products' recurrence d y_i = d y_(i-1) a_i + y_(i-1) t_i."""
    if axis is None:
        a, t, axis = np.ravel(a), np.ravel(t), 0
    a, t = np.moveaxis(np.asarray(a), axis, 0), np.moveaxis(np.asarray(t), axis, 0)
    out = np.zeros_like(t, dtype=np.result_type(t, a))
    product, tangent = np.ones_like(a[0]), np.zeros_like(out[0])
    for i in range(a.shape[0]):
        tangent = tangent * a[i] + product * t[i]
        product = product * a[i]
        out[i] = tangent
    if include_initial:
        out = np.concatenate([np.zeros_like(out[:1]), out])
    return np.moveaxis(out, 0, axis)


@template_helper
def tangent_terms_sum(total, term):
    """Two helpers' tangent terms added: entry by entry when the rule's output is a tuple
    (np.linalg.lstsq's (dx, d residuals, None, ds) from a and from b), where `+` would
    concatenate the tuples (fuzz: forward_mode:3096)."""
    return add_tangents(total, term)
