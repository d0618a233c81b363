"""np.linalg.cond, np.linalg.tensorinv and np.linalg.tensorsolve.

cond(x, p) for p None, 2 or -2 is a ratio of extreme singular values (any shape,
stacked): with x = U S V^T, d s_i = u_i^T dx v_i, so the cotangent combines the two
singular pairs; for the other p it is norm(x, p) norm(inv(x), p) (square matrices), whose
cotangent is NumPy's norm rule at x plus, through d inv = -inv dx inv, at inv(x). Where
the extreme singular values are repeated the derivative does not exist. tensorinv and
tensorsolve are np.linalg.inv and np.linalg.solve of a reshaped `a` (tensorsolve's
axes= first moves those axes of `a` last), and take those rules' cotangents, reshaped back.
"""
import numpy as np

from ..registry import LINEAR, defvjp, template_helper
from .norm_helpers import norm_vjp
from .shape_helpers import cot_dtype


def _singular_cot(g, x, p):
    """Cotangent of s_max / s_min (p 2 or None) or s_min / s_max (p -2)."""
    u, s, vh = np.linalg.svd(x, full_matrices=False)
    top = u[..., :, :1] @ vh[..., :1, :]                    # d s_max / dx
    low = u[..., :, -1:] @ vh[..., -1:, :]                  # d s_min / dx
    s_max, s_min = s[..., :1, None], s[..., -1:, None]
    if p == -2:
        top, low, s_max, s_min = low, top, s_min, s_max
    ratio = s_max / s_min
    return np.expand_dims(g, (-2, -1)) * (top - ratio * low) / s_min


@template_helper(pure=True)
def cond_vjp(g, ans, x, p):
    """Cotangent of x of np.linalg.cond(x, p)."""
    x, g = np.asarray(x), np.asarray(g)
    if p in (None, 2, -2):
        cot = _singular_cot(g, x, p)
    else:
        inv = np.linalg.inv(x)
        axes = (-2, -1)
        norm_x, norm_inv = np.linalg.norm(x, p, axes), np.linalg.norm(inv, p, axes)
        at_inv = norm_vjp(g * norm_x, norm_inv, inv, p, axes, False)
        cot = norm_vjp(g * norm_inv, norm_x, x, p, axes, False) \
            - np.swapaxes(inv, -1, -2) @ at_inv @ np.swapaxes(inv, -1, -2)
    return np.asarray(cot, dtype=cot_dtype(g, x))      # (forward mode takes np.asarray)


@template_helper(pure=True)
def tensorinv_vjp(g, ans, a, ind):
    """inv's cotangent -A^-T G A^-T on the matrix view of a."""
    a = np.asarray(a)
    rows = int(np.prod(a.shape[:ind]))
    inverse = np.reshape(ans, (-1, rows))
    gm = np.reshape(g, inverse.shape)
    return -(inverse.T @ gm @ inverse.T).reshape(a.shape)


def _tensor_axes(a, axes):
    """The axis order tensorsolve gives a (axes moved last), as NumPy computes it."""
    order = list(range(np.ndim(a)))
    for k in axes or ():
        order.remove(k)
        order.insert(np.ndim(a), k)
    return order


@template_helper(pure=True)
def tensorsolve_vjp(g, ans, a, b, axes, part):
    """Cotangent of a (part 0) or b (part 1) of np.linalg.tensorsolve."""
    order = _tensor_axes(a, axes)
    moved = np.transpose(np.asarray(a), order)
    matrix = moved.reshape(np.size(b), -1)
    y = np.linalg.solve(matrix.T, np.ravel(g))
    if part == 1:
        return y.reshape(np.shape(b)).astype(cot_dtype(g, b), copy=False)
    cot = -np.outer(y, np.ravel(ans)).reshape(moved.shape)
    return np.transpose(cot, np.argsort(order)).astype(cot_dtype(g, a), copy=False)


defvjp(np.linalg.cond, "x, p=None", "cond_vjp(g, ans, x, p)", None, numeric=True,
       jvp="reduce_jvp(cond_vjp(np.ones_like(ans), ans, x, p), t_x, (-2, -1))")
defvjp(np.linalg.tensorinv, "a, ind=2", "tensorinv_vjp(g, ans, a, ind)", None, numeric=True,
       jvp="tensorinv_jvp(t_a, ans, a, ind)")
defvjp(np.linalg.tensorsolve, "a, b, axes=None", "tensorsolve_vjp(g, ans, a, b, axes, 0)",
       "tensorsolve_vjp(g, ans, a, b, axes, 1)", None, numeric=True,
       jvp=("tensorsolve_jvp(t_a, ans, a, axes)", LINEAR))


@template_helper
def tensorsolve_jvp(t, ans, a, axes):
    """a x = b with b held: da x + a dx = 0, on a with `axes` moved last (as NumPy does)."""
    order = _tensor_axes(a, axes)
    moved, t = np.transpose(a, order), np.transpose(t, order)
    return -np.linalg.tensorsolve(moved, np.tensordot(t, ans, np.ndim(ans)))


@template_helper
def tensorinv_jvp(t, ans, a, ind):
    """inv's tangent -A^-1 dA A^-1 on the matrix view of a."""
    rows = int(np.prod(np.shape(a)[:ind]))
    inverse = np.reshape(ans, (-1, rows))
    return np.reshape(-(inverse @ np.reshape(t, (rows, -1)) @ inverse), np.shape(ans))
