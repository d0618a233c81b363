"""Template helpers for runtime/rules/polynomials.py: np.polyval, np.vander, np.select."""
import numpy as np

from ..helpers import unbroadcast
from ..registry import template_helper
from .shape_helpers import cot_dtype, sum_to_shape


def _powers(x, exponents):
    """x ** e for each exponent (stacked first), and e * x ** (e - 1) beside it: the
    slope of x ** 0 is 0 even at x = 0 (where 0 * x ** -1 would be nan)."""
    x = np.asarray(x)
    e = np.asarray(exponents).reshape((-1,) + (1,) * x.ndim)
    values = x ** e.astype(x.dtype if x.dtype.kind == "f" else np.float64)
    slopes = np.where(e > 0, e * x ** np.maximum(e - 1, 0).astype(values.dtype), 0)
    return values, slopes.astype(values.dtype)


@template_helper(pure=True)
def polyval_coefficients_vjp(g, p, x):
    """Cotangent of the coefficients p (highest power first; each p[k] may be an array
    broadcasting against x): p[k] multiplies x ** (n - 1 - k)."""
    p = np.asarray(p)
    n = len(p)
    values, _ = _powers(x, np.arange(n - 1, -1, -1))
    cot = np.stack([sum_to_shape(g * values[k], p.shape[1:]) for k in range(n)])
    return cot.astype(cot_dtype(g, p))


@template_helper(pure=True)
def polyval_slope(p, x):
    """d/dx np.polyval(p, x): np.polyval of the derivative's coefficients."""
    p = np.asarray(p)
    n = len(p)
    dtype = cot_dtype(1.0, p)
    if n < 2:
        return np.zeros(np.broadcast_shapes(p.shape[1:], np.shape(x)), dtype=dtype)
    scale = np.arange(n - 1, 0, -1, dtype=dtype).reshape((-1,) + (1,) * (p.ndim - 1))
    return np.polyval(p[:-1] * scale, x)


@template_helper(pure=True)
def vander_vjp(g, x, N, increasing):
    """Cotangent of x of np.vander: column j is x ** e_j, with slope e_j x ** (e_j - 1)."""
    slopes = vander_slopes(x, N, increasing).T
    return np.sum(np.asarray(g).T * slopes, axis=0).astype(cot_dtype(g, x))


@template_helper(pure=True)
def vander_slopes(x, N, increasing):
    """d vander(x)[i, j] / d x[i] = e_j x_i ** (e_j - 1), shaped like vander(x)."""
    x = np.asarray(x)
    n = len(x) if N is None else N
    exponents = np.arange(n) if increasing else np.arange(n - 1, -1, -1)
    return _powers(x, exponents)[1].T


@template_helper(pure=True)
def select_vjp(g, condlist, choicelist, default, part):
    """Cotangents of np.select's choices (part 'choices': a list, one per choice) or of
    its default (part 'default'): each output element comes from the first choice
    whose condition holds there, else from the default."""
    conditions = np.broadcast_arrays(*[np.asarray(c, dtype=bool) for c in condlist])
    taken = np.zeros(np.shape(g), dtype=bool)
    cots = []
    for condition, choice in zip(conditions, choicelist):
        first = condition & ~taken
        taken = taken | condition
        cots.append(unbroadcast(np.where(first, g, 0).astype(cot_dtype(g, choice)), choice))
    if part == "default":
        return unbroadcast(np.where(taken, 0, g).astype(cot_dtype(g, default)), default)
    return type(choicelist)(cots) if isinstance(choicelist, (list, tuple)) else cots
