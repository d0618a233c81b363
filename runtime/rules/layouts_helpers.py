"""Template helpers for runtime/rules/layouts.py: np.rollaxis, np.frexp, np.modf, and
the real-input checks of np.angle and np.real_if_close; np.meshgrid's rule."""
import numpy as np

from ..complex_safety import RuleRefused
from ..registry import template_helper
from ..thunks import Thunk, unthunk
from .shape_helpers import cot_dtype


def _rolled_axes(ndim, axis, start):
    """The axis order np.rollaxis(a, axis, start) produces (NumPy's own steps)."""
    axis, start = axis % ndim, start + ndim if start < 0 else start
    if axis < start:
        start -= 1
    axes = list(range(ndim))
    if axis != start:
        axes.remove(axis)
        axes.insert(start, axis)
    return axes


@template_helper(pure=True)
def rollaxis_vjp(g, a, axis, start):
    """Cotangent of np.rollaxis: g with the roll undone."""
    return np.transpose(g, np.argsort(_rolled_axes(np.ndim(a), axis, start)))


def _first_part(g, like):
    part = g[0] if isinstance(g, (tuple, list)) else g
    return np.zeros_like(like) if part is None else np.asarray(part)


@template_helper(pure=True)
def frexp_vjp(g, ans, x):
    """Cotangent of x of np.frexp: the mantissa is x / 2 ** e with e locally constant
    (a step where |x| crosses a power of two); the exponent is an integer."""
    mantissa, exponent = ans
    cot = np.ldexp(_first_part(g, mantissa), -exponent)
    return cot.astype(cot_dtype(1.0, x))


@template_helper(pure=True)
def modf_vjp(g, ans, x):
    """Cotangent of x of np.modf: the fractional part moves with x (slope 1), the
    integral part is a step (slope 0)."""
    fraction, _ = ans
    return _first_part(g, fraction).astype(cot_dtype(1.0, x))


@template_helper(pure=True)
def real_input_vjp(g, x, name, slope):
    """g * slope for a function given real x (np.angle: 0, np.real_if_close: 1);
    complex input has no rule."""
    if np.iscomplexobj(x):
        raise RuleRefused(f"{name}'s rule takes real input only")
    return (np.asarray(g) * slope).astype(cot_dtype(g, x))


def _meshgrid_axis(k, count, indexing):
    """The output axis along which the k-th input varies."""
    if indexing == "xy" and count > 1 and k < 2:
        return 1 - k
    return k


def meshgrid_rule(*xi, copy=True, sparse=False, indexing="xy"):
    """(np.meshgrid(*xi, ...), pullback): output k repeats input k along every axis
    but its own, so its cotangent sums over the others."""
    ans = np.meshgrid(*xi, copy=copy, sparse=sparse, indexing=indexing)

    def pullback(g):
        def cotangent(k):
            def value():
                part = unthunk(unthunk(g)[k])
                if part is None:
                    return np.zeros(np.shape(xi[k]), dtype=cot_dtype(1.0, xi[k]))
                axis = _meshgrid_axis(k, len(xi), indexing)
                others = tuple(a for a in range(np.ndim(part)) if a != axis)
                summed = np.sum(part, axis=others)
                return summed.reshape(np.shape(xi[k])).astype(cot_dtype(part, xi[k]))
            return Thunk(value)
        return tuple(cotangent(k) for k in range(len(xi)))
    return ans, pullback
