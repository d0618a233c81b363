"""What reverse mode's gradient in one sweep (transform/flat_gradient.py, hvp forward
over reverse) calls besides the backward sweep's own helpers: its seed, its result,
and `accumulated_at`, which stands for the in-place `accumulate_at` there (`accumulate_into`
is written `accum_eager`, a fresh sum)."""
import numbers

import numpy as np

from .accumulate import accumulate_at, own
from .complex_safety import RuleRefused
from .containers import _last_writes_only, is_basic_index
from .forward import zero_tangent
from .helpers import matmul_rhs, unbroadcast
from .products import _stacked_lhs
from .registry import template_helper
from .tape import shape_only
from .thunks import unthunk


def gradient_of(cotangent, like):
    """A gradient as grad returns it: the cotangent forced, zeros like the argument where
    none flowed (None)."""
    g = unthunk(cotangent)
    return zero_tangent(like) if g is None else g


def gradient_seed(out):
    """The cotangent 1 grad seeds a scalar output with (transform/public/boundary.py
    `_seed`); anything else is refused here: H v needs a scalar function."""
    if isinstance(out, np.ndarray):
        if out.shape == () and out.dtype.kind == "f":
            return np.ones_like(out)
    elif isinstance(out, np.floating):
        return type(out)(1)
    elif isinstance(out, numbers.Real) and not isinstance(out, (bool, np.bool_)):
        return 1.0
    raise TypeError(f"hvp needs a scalar output, got {_described(out)}")


def _described(value):
    if isinstance(value, np.ndarray):
        return f"an array of shape {value.shape} and dtype {value.dtype}"
    return f"a {type(value).__name__}"


def shape_snapshot(x):
    """A tape entry the backward sweep reads only for its shape (reverse mode's
    `shape_only(x)`), a list or dict copied (shallow): shape_only keeps the container
    itself, which a later item store changes; forward mode's alias check refuses that
    in the flat gradient, and the copy is the container as it was when saved."""
    if type(x) is list or type(x) is dict:
        return type(x)(x)
    return shape_only(x)


def accumulated_at(buffer, like, index, value):
    """`accumulate_at` on a copy of the buffer: forward mode reads the buffer's old
    value in no tangent, but the tangent of a buffer may be another value's tangent."""
    return accumulate_at(own(buffer), like, index, value)


@template_helper
def zero_if_none(tangent):
    """A tangent, 0.0 for None: the tangent forward mode gives a bool or None read back
    from the tape (a factor `x * flag` of the user's code), which carries no derivative."""
    return 0.0 if tangent is None else tangent


def lhs_products(gs, bs, a):
    """Σ_k matmul_lhs(gs[k], a, bs[k]) over the pairs whose g is not None (None when
    there are none): a backward loop's batched outer products (runtime/products.py
    MatmulLhsSum) as one function of the two lists, so forward mode carries their
    tangent lists and the tangent is two such products."""
    if gs and getattr(a, "ndim", 0) == 2 and len(gs) == len(bs) and _vectors(gs) and \
            _vectors(bs):             # the RNN's: Σ outer(g, b), stacked by np.array (a
        return np.array(gs).T @ np.array(bs)       # third of np.stack's time)
    pairs = [(unthunk(g), b) for g, b in zip(gs, bs) if unthunk(g) is not None]
    if not pairs:
        return None
    return _stacked_lhs([g for g, _ in pairs], [b for _, b in pairs], a)


def _vectors(values):
    """Every value a 1-D ndarray (no None, no Thunk)."""
    for v in values:
        if type(v) is not np.ndarray or v.ndim != 1:
            return False
    return True


@template_helper
def lhs_products_vjp(g, gs, bs, a, which):
    """The cotangent of `gs` (which=0) or `bs` (1) in lhs_products: per entry, that of
    matmul_lhs(gs[k], a, bs[k]) (None where gs[k] is None)."""
    out = []
    for gk, bk in zip(gs, bs):
        if unthunk(gk) is None:
            out.append(None)
        elif which == 0:
            out.append(unbroadcast(np.matmul(g, bk), gk))
        else:
            out.append(matmul_rhs(gk, g, bk))
    return out


@template_helper
def arrays_only(g, *values):
    """g, after checking that every value is a number or an array: the cotangent
    templates of `unbroadcast` and `product_or_repeat_vjp` (runtime/rules/reverse_code.py)
    are written for those, not for the sequences (`xs + ys`, `xs * n`) the helpers also
    take, so reverse mode through them refuses a sequence."""
    if any(isinstance(v, (list, tuple, dict)) for v in values):
        raise RuleRefused("reverse mode through a cotangent helper of a sequence is not "
                          "supported Instead: use hvp's route=\"reverse_over_forward\"")
    return g


def item_split(dx, index):
    """`setitem_vjp(dx, index, owned)` on a copy (the flat gradient's: the tangent of dx
    may be another value's): (the part that flows to the stored value, dx with zeros at
    index; a dict's without the key, a list's with None there, as setitem_vjp's)."""
    dx = unthunk(dx)
    if isinstance(dx, dict):
        rest = dict(dx)
        return rest.pop(index, None), rest
    if isinstance(dx, (list, tuple)) and isinstance(index, numbers.Integral):
        rest = list(dx)
        piece, rest[index] = rest[index], None
        return piece, rest
    if not isinstance(dx, np.ndarray):
        raise RuleRefused(f"hvp (forward over reverse): an item store into a "
                          f"{type(dx).__name__} at {type(index).__name__} is not supported "
                          "Instead: use hvp's route=\"reverse_over_forward\"")
    piece = np.array(dx[index], copy=True)
    if not is_basic_index(index):
        piece = _last_writes_only(piece, dx.shape, index)
    rest = np.array(dx, copy=True)
    rest[index] = 0
    return piece, rest


@template_helper
def item_split_vjp(g, dx, index):
    """The cotangent of `dx` in item_split, from g = (of the piece, of the rest): the
    rest's with zeros at index, plus the piece's at index (a position written twice:
    its last write's only); an array's only (third order through a list's is refused)."""
    if not isinstance(dx, np.ndarray):
        raise RuleRefused("a third derivative through an item store into a "
                          f"{type(dx).__name__} is not supported")
    g_piece, g_rest = (None, None) if g is None else (unthunk(g[0]), unthunk(g[1]))
    kind = dx.dtype if dx.dtype.kind in "fc" else np.dtype(float)
    out = np.zeros(dx.shape, kind) if g_rest is None else \
        np.array(g_rest, dtype=np.result_type(g_rest, kind), copy=True)
    out[index] = 0
    if g_piece is not None:
        np.add.at(out, index, _last_writes_only(np.asarray(g_piece), dx.shape, index))
    return out


@template_helper
def plus_zero(tangent, other):
    """`tangent + zero_addend(other)` (forward mode's tangent of `x + y`, y carrying
    none), without the zeros where adding them changes nothing: `tangent` an array (not
    0-d) of other's shape and dtype, or a float one and `other` a Python float (hvp
    forward over reverse, transform/forward/zeros.py)."""
    if _unchanged(tangent, other):
        return tangent
    return tangent + _zeros(other)


@template_helper
def zero_plus(other, tangent):
    """`zero_addend(other) + tangent` (the tangent of `y + x`, y carrying none): as
    plus_zero, the zeros first (a list's concatenation keeps its order)."""
    if _unchanged(tangent, other):
        return tangent
    return _zeros(other) + tangent


def _unchanged(tangent, other):
    if type(tangent) is np.ndarray and tangent.ndim:      # (a 0-d sum is a NumPy scalar)
        if type(other) is np.ndarray and other.shape == tangent.shape and \
                other.dtype == tangent.dtype:
            return True
        return type(other) is float and tangent.dtype.kind in "fc"
    return False


def _zeros(other):
    return 0.0 if isinstance(other, (bool, np.bool_)) else zero_tangent(other)
