"""np.gradient's rule (its spacings are varargs, so it is a custom rrule) and the
adjoint of its stencils.

np.gradient is linear in f along each axis: out = A f, where A (n x n) has central
differences inside and one-sided ones at the ends, so it is banded (|i - j| <= 2 for
edge_order 2). Its transpose is read off five probes: the gradient of the comb
p_r = [j % 5 == r] is A[i, j] at the one j = r (mod 5) within two places of i, which
holds for any spacing, uniform or coordinates, and either edge order.
"""
import numpy as np

from ..complex_safety import ComplexRefused, RuleRefused
from ..jvp import NoJvp

from ..thunks import Thunk, unthunk
from .shape_helpers import cot_dtype

_BAND = 5      # columns of A a row can touch: i - 2 .. i + 2


def gradient_axes(f, axis):
    """The axes np.gradient differentiates along, as a tuple of non-negative ints."""
    ndim = np.ndim(f)
    if axis is None:
        return tuple(range(ndim))
    axes = (axis,) if np.ndim(axis) == 0 else tuple(axis)
    return tuple(a % ndim for a in axes)


def axis_spacings(varargs, axes):
    """One spacing per differentiated axis: 1.0, a scalar, or a coordinate array."""
    if not varargs:
        return [1.0] * len(axes)
    if len(varargs) == 1 and np.ndim(varargs[0]) == 0:
        return [varargs[0]] * len(axes)
    return list(varargs)


def stencil_transpose(g, spacing, edge_order):
    """A^T g along the last axis of g, A being np.gradient's stencil (module docstring)."""
    n = g.shape[-1]
    combs = (np.arange(n) % _BAND == np.arange(_BAND)[:, None]).astype(np.float64)
    entries = np.gradient(combs, spacing, axis=1, edge_order=edge_order)   # (5, n)
    weighted = np.pad(entries[:, None] * g.reshape(1, -1, n), [(0, 0), (0, 0), (2, 2)])
    windows = sum(weighted[..., k:k + n] for k in range(_BAND))           # (5, m, n)
    out = np.sum(windows * combs[:, None], axis=0)
    return out.reshape(g.shape)


def gradient_f_vjp(parts, f, axes, spacings, edge_order):
    """Cotangent of f: the sum over axes of each stencil's transpose applied to that
    axis' cotangent (None parts received none)."""
    f = np.asarray(f)
    cot = np.zeros(f.shape, dtype=cot_dtype(1.0, f))
    for g, axis, spacing in zip(parts, axes, spacings):
        if g is not None:
            moved = np.moveaxis(np.asarray(g, dtype=np.float64), axis, -1)
            back = stencil_transpose(moved, spacing, edge_order)
            cot += np.moveaxis(back, -1, axis).astype(cot.dtype)
    return cot


def spacing_vjp(parts, outs, spacing):
    """Cotangent of a scalar spacing h shared by `parts`: out = (A1 f) / h, so
    d out / dh = -out / h. A coordinate array has no rule."""
    if np.ndim(spacing):
        raise RuleRefused("np.gradient's rule has no derivative in a coordinate "
                                  "array spacing (only in scalar spacings and in f)")
    total = sum(np.sum(g * o) for g, o in zip(parts, outs) if g is not None)
    return cot_dtype(1.0, spacing).type(-total / spacing)


def gradient_rule(f, *varargs, axis=None, edge_order=1):
    """(np.gradient(f, *varargs, ...), pullback): cotangents for f and each spacing."""
    ans = np.gradient(f, *varargs, axis=axis, edge_order=edge_order)
    if any(np.iscomplexobj(v) for v in (f, *varargs)):   # the rule casts to real
        raise ComplexRefused("np.gradient's derivative rule is for real values; a complex "
                             "value reaches it here. Instead: apply it to the real and "
                             "imaginary parts separately (np.gradient is linear)")
    axes = gradient_axes(f, axis)
    spacings = axis_spacings(varargs, axes)
    outs = ans if isinstance(ans, (tuple, list)) else (ans,)

    def pullback(g):
        def parts():
            g_ = unthunk(g)
            return [unthunk(p) for p in g_] if isinstance(ans, (tuple, list)) else [g_]

        def spacing_cot(k):
            if isinstance(varargs[k], (int, np.integer)):
                return None
            if len(varargs) == 1:
                return Thunk(lambda: spacing_vjp(parts(), outs, varargs[0]))
            return Thunk(lambda: spacing_vjp([parts()[k]], [outs[k]], varargs[k]))
        f_cot = Thunk(lambda: gradient_f_vjp(parts(), f, axes, spacings, edge_order))
        return (f_cot,) + tuple(spacing_cot(k) for k in range(len(varargs)))
    return ans, pullback


def gradient_jvp(tangents, f, *varargs, axis=None, edge_order=1):
    """np.gradient's tangent (rrule(np.gradient, jvp=...)): the gradient of f's tangent
    (linear in f), plus -out t_h / h for each scalar spacing h with a tangent (each
    output is A f / h); a coordinate array's tangent has no rule (as in the pullback)."""
    t_f, t_spacings = tangents[0], tangents[1:]
    ans = np.gradient(f, *varargs, axis=axis, edge_order=edge_order)
    outs = list(ans) if isinstance(ans, (tuple, list)) else [ans]
    total = [np.zeros(np.shape(o)) for o in outs] if t_f is None else \
        _parts(np.gradient(t_f, *varargs, axis=axis, edge_order=edge_order))
    for k, t in enumerate(t_spacings):
        if t is None:
            continue
        if np.ndim(varargs[k]):
            raise NoJvp("np.gradient's rule has no derivative in a coordinate array spacing")
        for j in (range(len(outs)) if len(varargs) == 1 else (k,)):
            total[j] = total[j] - outs[j] * (t / varargs[k])
    return type(ans)(total) if isinstance(ans, (tuple, list)) else total[0]


def _parts(value):
    return list(value) if isinstance(value, (tuple, list)) else [value]
