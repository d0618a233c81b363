"""Small functions the rule templates call: shape bookkeeping that is not math."""
import math

import numpy as np

from .accumulate import accumulate_into, add_in_place, is_basic_index, real_for
from .closures import RECORD_TYPES
from .operators import has_operators
from .registry import helper, template_helper
from .rules.shape_helpers import as_cotangent, cot_dtype


_SCALAR_TYPES = (float, int, bool, complex)


def fast_shape(x):
    """np.shape without the array conversion for numbers, arrays and tape stand-ins."""
    shape = getattr(x, "shape", None)
    if shape is not None:
        return shape
    if isinstance(x, _SCALAR_TYPES):
        return ()
    return np.shape(x)


_NUMBERS = frozenset({float, int, bool, complex, type(None)})


@template_helper(shape_only=(1,), pure=True)
def unbroadcast(grad, x, side=None):
    """Sum `g` back to the shape of `x` (undo NumPy broadcasting).

    For `+` on lists and tuples (concatenation), `side` 0 or 1 says which part
    of the cotangent belongs to x.
    """
    if type(x) is float and type(grad) is np.ndarray:     # a number's: sum everything
        return grad.sum()
    if side is not None and isinstance(x, (list, tuple)) and grad is not None:
        part = grad[:len(x)] if side == 0 else grad[len(grad) - len(x):]
        return type(x)(part)
    shape = getattr(x, "shape", None)           # inline fast_shape: this is hot in loops
    if shape is None:
        if isinstance(x, (list, tuple, dict) + RECORD_TYPES) and \
                not isinstance(grad, (np.ndarray, np.generic, float, int)):
            # a container stored into a list or dict slot has a structured cotangent:
            # nothing was broadcast (a number g still spreads over x below)
            return grad
        if type(x) not in _NUMBERS and has_operators(type(x)):
            refuse_operator_object(x)
        shape = fast_shape(x)
    g_shape = getattr(grad, "shape", None)
    if (fast_shape(grad) if g_shape is None else g_shape) == shape:
        if g_shape is None:                             # a number (or None)
            return grad if type(grad) is not complex else real_for(grad, x)
        return grad if grad.dtype.kind != "c" else real_for(grad, x)    # complex: docs/complex.md
    if grad is None:               # a zero cotangent (an entry no one read) stays zero
        return None
    grad = np.asarray(grad)
    while grad.ndim > len(shape):
        grad = grad.sum(axis=0)
    axes = tuple(k for k, n in enumerate(shape) if n == 1 and grad.shape[k] != 1)
    if axes:
        grad = grad.sum(axis=axes, keepdims=True)
    if grad.dtype.kind == "c":
        grad = real_for(grad, x)
    if not shape and isinstance(x, (float, int)) and not isinstance(x, bool):
        return grad[()]
    return grad


@helper(in_place=True)
def accumulate_unbroadcast(buffer, g, x, side=None):
    """accumulate_into(buffer, unbroadcast(g, x, side)), the loop's common case first:
    an owned array buffer (shaped like x) and a cotangent of the same shape."""
    if type(buffer) is np.ndarray and type(g) is np.ndarray and buffer.shape == g.shape:
        return add_in_place(buffer, g if g.dtype.kind != "c" else real_for(g, x))
    return accumulate_into(buffer, unbroadcast(g, x, side))


@template_helper(shape_only=(1,), pure=True)
def unreduce(value, x, axis=None, keepdims=False):
    """Spread the cotangent of a reduction over `axis` back to the shape of `x`."""
    shape = fast_shape(x)
    if axis is None and math.prod(shape) <= _SMALL:   # a filled copy: far cheaper than a view
        dtype = getattr(value, "dtype", None)
        return np.full(shape, value, dtype=cot_dtype(value, x) if dtype is None else dtype)
    value = as_cotangent(value, x)  # a Python-number g takes x's float dtype
    if axis is not None and not keepdims:
        value = np.expand_dims(value, axis)
    return np.broadcast_to(value, shape)


_SMALL = 1024   # up to this many elements, a filled copy beats np.broadcast_to's overhead


@template_helper(shape_only=(0,), pure=True)
def reduction_size(x, axis=None):
    """How many elements a reduction over `axis` of `x` combines."""
    shape = fast_shape(x)
    if axis is None:
        return math.prod(shape)
    axes = axis if isinstance(axis, tuple) else (axis,)
    return math.prod([shape[a] for a in axes])


@template_helper(shape_only=(1,), pure=True)
def index_vjp(g, x, index):
    """Cotangent of `x[index]`: `g` placed at `index` in zeros shaped like `x`.

    Repeated fancy indices add up (like np.add.at); lists and tuples get a
    list or tuple of cotangents with None (zero) elsewhere.
    """
    if isinstance(x, (list, tuple)):
        out = [None] * len(x)
        if isinstance(index, slice):
            parts = () if g is None else g        # a zero cotangent: every entry zero
            for k, gk in zip(range(*index.indices(len(x))), parts):
                out[k] = gk
        else:
            out[index] = g
        return out if isinstance(x, list) else tuple(out)
    if g is None:               # a zero cotangent (no entry read): `out[i] = None` is NaN
        g = 0.0
    out = np.zeros(fast_shape(x), dtype=cot_dtype(g, x))
    if is_basic_index(index):
        out[index] = g
    else:
        np.add.at(out, index, g)
    return out


def _ndim(x):
    nd = getattr(x, "ndim", None)
    if nd is None and type(x) not in _NUMBERS and has_operators(type(x)):
        refuse_operator_object(x)
    return nd if nd is not None else np.ndim(x)


def refuse_operator_object(x):
    """An operand whose class has operator methods reached an arithmetic rule: the
    module doing the arithmetic does not name the class (transform/lowering/
    operator_methods.py follows the methods where it does)."""
    raise TypeError(f"`{type(x).__name__}` operand of an operator differentiated as "
                    "arithmetic: its class's method runs in Python, its derivative is not "
                    "NumPy's; import the class into the module doing the arithmetic (its "
                    "operators are then followed)")


@template_helper(pure=True)
def matmul_lhs(slopes_g, a, b):
    """Cotangent of `a` in `a @ b`, for any mix of 1-D, 2-D and batched operands."""
    a_nd, b_nd = _ndim(a), _ndim(b)
    if a_nd == 2 and b_nd == 2:
        return slopes_g @ b.T                              # the common case, no broadcasting
    if a_nd == 2 and b_nd == 1:
        return np.multiply.outer(slopes_g, b)
    if b_nd == 1:
        return unbroadcast(np.multiply.outer(slopes_g, b) if a_nd > 1
                           else np.multiply(slopes_g, b), a)
    if a_nd == 1:
        return unbroadcast(np.matmul(b, np.expand_dims(slopes_g, -1))[..., 0], a)
    return unbroadcast(np.matmul(slopes_g, np.swapaxes(b, -1, -2)), a)


@template_helper(pure=True)
def matmul_rhs(slopes_g, a, b):
    """Cotangent of `b` in `a @ b`, for any mix of 1-D, 2-D and batched operands."""
    a_nd, b_nd = _ndim(a), _ndim(b)
    if a_nd == 2 and b_nd in (1, 2):
        return a.T @ slopes_g                              # the common case, no broadcasting
    if a_nd == 1:                                   # a may be a list: np.multiply, not *
        return unbroadcast(np.expand_dims(a, -1) * np.expand_dims(slopes_g, -2) if b_nd > 1
                           else np.multiply(slopes_g, a), b)
    if b_nd == 1:
        return unbroadcast(np.matmul(np.swapaxes(a, -1, -2),
                                     np.expand_dims(slopes_g, -1))[..., 0], b)
    return unbroadcast(np.matmul(np.swapaxes(a, -1, -2), slopes_g), b)


def matmul_lhs_spread(g, t, a, b):
    """matmul_lhs(unreduce(g, t), a, b), t = a @ b: a scalar cotangent spread over t
    gives every row of a's cotangent the same g * (row sums of b): no matrix product."""
    if _ndim(a) == 2 and _ndim(b) in (1, 2) and getattr(g, "ndim", 0) == 0:
        return _stacked(g * (b.sum(axis=1) if b.ndim == 2 else b), a.shape[0], axis=0)
    return matmul_lhs(unreduce(g, t), a, b)


def matmul_rhs_spread(g, t, a, b):
    """matmul_rhs(unreduce(g, t), a, b): every column of b's cotangent is g * (column
    sums of a)."""
    if _ndim(a) == 2 and _ndim(b) in (1, 2) and getattr(g, "ndim", 0) == 0:
        column = g * a.sum(axis=0)
        return column if b.ndim == 1 else _stacked(column, b.shape[1], axis=1)
    return matmul_rhs(unreduce(g, t), a, b)


def _stacked(vector, n, axis):
    """n copies of `vector` as the rows (axis=0) or columns (axis=1) of a fresh array."""
    out = np.empty((n, len(vector)) if axis == 0 else (len(vector), n), dtype=vector.dtype)
    out[...] = vector if axis == 0 else vector[:, None]
    return out


@template_helper
def transpose_vjp(slopes, axes=None):
    """Cotangent of `np.transpose(x, axes)`: transpose back."""
    if axes is None:
        return np.transpose(slopes)
    return np.transpose(slopes, np.argsort(axes))


@template_helper(shape_only=(1,))
def reshape_vjp(g, x):
    """Cotangent of a reshape: reshape back to `x`'s shape."""
    return np.reshape(g, np.shape(x))


@template_helper
def pow_exponent_vjp(slopes_g, answer, x, y):
    """d(x ** y)/dy = x ** y * log(x): 0 where x == 0 (0 ** y is constant in y > 0), NaN
    where x < 0 (as JAX: real powers of a negative base are defined at integer y only,
    no derivative in y; differences give NaN), except where slopes_g is 0 (that element
    adds nothing: `np.where(x > 0, x ** p, 0)` stays finite, in grad as in jvp); a
    complex power uses the principal log (docs/complex.md)."""
    if np.iscomplexobj(answer):
        x = np.asarray(x)                # astype keeps a -0.0 imaginary part (adding 0j
        x = x.astype(np.result_type(x, answer))  # would not): the branch of log ans took
        return unbroadcast(slopes_g * answer * np.log(np.where(x == 0, 1, x)), y)
    return unbroadcast(weighted(slopes_g, answer * exponent_log(x)), y)


def exponent_log(x):
    """log x where x > 0, 0 where x == 0, NaN where x < 0 (pow_exponent_vjp's); a Python
    number stays one (weakly typed: float32 stays)."""
    if isinstance(x, (int, float)):
        return math.log(x) if x > 0 else 0.0 if x == 0 else math.nan
    x = np.asarray(x)
    log = np.log(np.where(x > 0, x, 1))
    return np.where(x < 0, np.nan, log) if np.any(x < 0) else log


def weighted(weight, factor):
    """weight * factor, 0 where weight (a cotangent or tangent) is 0: a NaN factor there
    adds nothing."""
    product = weight * factor
    if isinstance(factor, float) and not math.isnan(factor):
        return product
    if not isinstance(factor, float) and not np.isnan(factor).any():
        return product
    return np.where(np.equal(weight, 0), 0, product)


# The np.linalg.norm rule covers every `ord` now; it lives with the other norms.
from .rules.norm_helpers import norm_vjp  # noqa: E402,F401


@template_helper
def integer_valued(value):
    """A helper's (or property's) value the compiler read as an integer made from sizes
    (transform/lowering/integer_results.py): so it carries no derivative. A user
    object's `.shape` or `.size` (or a subclass's property) that is not is refused."""
    if isinstance(value, tuple) and all(isinstance(v, (int, np.integer)) for v in value) \
            or isinstance(value, (int, np.integer)):
        return value
    raise TypeError(f"thunkgrad read this call (or attribute) as an integer made from "
                    f"sizes (len, int, .shape, .ndim, .size), but it is a "
                    f"{type(value).__name__}: its derivative would be dropped; compute it "
                    "in the function itself")
