"""Cotangent helpers for the functions generated forward-mode code calls
(runtime/rules/tangents.py): reverse mode over `<name>_jvp` (transform.hvp) reads them."""
import numpy as np

from ..complex_safety import ComplexRefused
from ..containers import getattr_vjp, setitem_vjp
from ..helpers import unbroadcast
from ..registry import template_helper
from ..thunks import unthunk
from .operators_helpers import _origins_by_identity, _origins_by_value, _same, _scaled
from .reductions_helpers import _axes, _keepdims_shape, tie_share

# getter_vjp(getter, obj, tangent, g) -> (tangent's cotangent, obj's cotangent) for the
# tangent of a @property's getter (attribute_tangent's getter case): the compiler's
# reverse over the getter's `_jvp` (transform/forward_reverse.py); runtime never imports it
PROVIDED = {}


@template_helper
def reduce_jvp_vjp(g, own, other, axis, keepdims):
    """Cotangent of `own` in reduce_jvp(slopes, t, axis, keepdims) = sum(slopes * t):
    g spread back over the reduced axes, times the other factor, summed to own's shape."""
    shape = np.broadcast_shapes(np.shape(own), np.shape(other))
    g = np.asarray(unthunk(g))
    if axis is not None and not keepdims:
        g = np.expand_dims(g, axis)
    return unbroadcast(np.broadcast_to(g, shape) * other, own)


@template_helper
def stored_tangent_vjp(g, index, value, part):
    """Cotangents of stored_tangent(tangent, index, value) (a copy with value stored at
    index): part 0, the tangent's (g with zeros at index); part 1, the value's (g at
    index, summed to value's shape; a zero where g has none there: a list's entry
    nothing read, a dict without the key). A zero, not None: the caller's template may
    multiply it (`dv0 += dt1_dot * v0_dot`: fuzz forward_mode:34221, hvp of a loop
    storing into a list whose first entry alone is read)."""
    piece, rest = setitem_vjp(unthunk(g), index, False)
    if part == 0:
        return rest
    return _zero_like(value) if piece is None else unbroadcast(piece, value)


@template_helper
def attribute_tangent_vjp(g, tangent, obj, name, part):
    """Cotangents of attribute_tangent(tangent, obj, name): part 0, the tangent's (a
    stored field's: the field's cotangent; `.T` transposed back; metadata: None), part 1,
    obj's (None: only a @property's getter tangent depends on obj)."""
    g = unthunk(g)
    getter = _getter(obj, name)
    if getter is not None:
        if "getter_vjp" not in PROVIDED:
            raise TypeError("a @property's tangent needs thunkgrad's compiler (import transform)")
        return PROVIDED["getter_vjp"](getter, obj, tangent, g)[part]
    if part == 1 or _metadata(obj, name):
        # a zero, not None: the caller's template may add it (`dv_dot + unreduce(...)`,
        # fuzz forward_mode:20261139, `v.shape[0]` beside `np.sum(v)`)
        return _zero_like(obj if part == 1 else tangent)
    if isinstance(obj, np.ndarray):
        return getattr_vjp(g, np.asarray(tangent), name)
    return getattr_vjp(g, tangent, name)


@template_helper
def attribute_obj_jvp(t_obj, tangent, obj, name):
    """The tangent obj's own tangent adds to attribute_tangent(tangent, obj, name): none
    for a stored field or an array's attribute (obj gives only its kind); a getter's
    tangent depends on obj, and forward mode over it is not written."""
    if _getter(obj, name) is not None:
        from ..jvp import NoJvp
        raise NoJvp("the tangent of a @property's tangent along its object")
    return None


def _getter(obj, name):
    from ..forward import _python_getter, _stored_attribute
    if isinstance(obj, np.ndarray) or _stored_attribute(obj, name):
        return None
    return _python_getter(obj, name)


def _metadata(obj, name):
    from ..forward import _ARRAY_METADATA
    return isinstance(obj, np.ndarray) and name in _ARRAY_METADATA


@template_helper
def extreme_jvp_vjp(g, answer, values, tangents):
    """Cotangent of the tangents in extreme_jvp(ans, values, tangents) (max/min's tangent,
    the picked entries' averaged): g over the picked entries, zero (None) elsewhere."""
    g = unthunk(g)
    picked = [_same(v, answer) for v in list(values)]
    share = _scaled(g, 1.0 / sum(picked))
    if isinstance(tangents, np.ndarray):
        out = np.zeros(tangents.shape, np.result_type(tangents, 0.0))
        out[np.array(picked)] = share
        return out
    out = [share if p else None for p in picked]
    return tuple(out) if isinstance(tangents, tuple) else out


@template_helper
def extremum_vjp_vjp(g, slopes_g, extremum, a, axis, keepdims):
    """Cotangent of the cotangent in extremum_vjp(slopes_g, extremum, a, ...) (max/min's
    VJP, which a JVP term evaluates at a cotangent of ones): linear in it, so g times
    each tie's share, summed back over the reduced axes to its shape."""
    a = np.asarray(a)
    axes = _axes(axis, a.ndim)
    hits = a == np.reshape(extremum, _keepdims_shape(a.shape, axes))
    g = np.asarray(unthunk(g))
    total = np.sum(g * tie_share(hits, axes, g.dtype), axis=axes, keepdims=True)
    return unbroadcast(np.reshape(total, np.shape(slopes_g)), slopes_g)


@template_helper
def sorted_jvp_vjp(g, answer, values, tangents):
    """Cotangent of the tangents in sorted_jvp(answer, values, tangents) (the entries'
    tangents in sorted's order): entry k of g goes back to where answer[k] came from,
    matched as sorted_jvp matches them."""
    g = unthunk(g)
    items = list(values)
    origin = _origins_by_identity(items, answer) or _origins_by_value(items, answer)
    out = [None] * len(items)
    for k, i in enumerate(origin):
        out[i] = unthunk(g[k])
    if isinstance(tangents, np.ndarray):
        cot = np.zeros(tangents.shape, np.result_type(tangents, 0.0))
        for i, c in enumerate(out):
            if c is not None:
                cot[i] = c
        return cot
    return tuple(out) if isinstance(tangents, tuple) else out


@template_helper
def abs_vjp_vjp(g, slopes_g, x):
    """Cotangent of the cotangent in abs_vjp(slopes_g, x) = slopes_g * sign(x) (|x|'s
    VJP inside its JVP term), real x: g * sign(x) summed to its shape (the sign is
    piecewise constant in x). Complex x (conj(x) / |x|) is not written: refused."""
    if np.iscomplexobj(x):
        raise TypeError("the second derivative of |x| for complex x is not supported")
    return unbroadcast(np.asarray(unthunk(g)) * np.sign(x), slopes_g)


def _zero_like(value):
    if isinstance(value, np.ndarray) and value.dtype.kind in "fc":
        return np.zeros_like(value)
    return 0.0 if isinstance(value, (float, np.floating)) else None


@template_helper
def permuted_jvp_vjp(g, t, order, axis):
    """Cotangent of t in permuted_jvp(t, order, axis) (a sort's tangent, t in `order`
    along axis): g put back where each entry came from."""
    g = np.asarray(unthunk(g))
    out = np.zeros(np.shape(t), np.result_type(g, 0.0))
    if axis is None:
        out.reshape(-1)[order] = g          # order is a permutation: no repeats
        return out
    np.put_along_axis(out, order, g, axis)
    return out


@template_helper
def real_sign_jvp_vjp(g, value):
    """Cotangent of t or x in sign_jvp(t, x, ans): zero, the tangent of a real sign being
    zero whatever t and x; a complex sign's tangent moves with both (not taken here)."""
    if np.iscomplexobj(value):
        raise TypeError("hvp of np.sign of complex values is not supported")
    if not isinstance(value, np.ndarray):
        return 0.0
    return np.zeros(value.shape, value.dtype if value.dtype.kind == "f" else float)


@template_helper
def deviation_vjp(g, a, axis):
    """Cotangent of a in deviation(a, axis) = a - mean(a, axis) (np.var's and np.std's
    slopes, real values): the same projection of g, which is self-adjoint."""
    if np.iscomplexobj(a) or np.iscomplexobj(g):
        raise ComplexRefused("np.var's and np.std's second derivatives take real values only")
    g = np.asarray(unthunk(g))
    return g - np.mean(g, axis, keepdims=True)


@template_helper
def unreduce_vjp(cot, g, axis, keepdims):
    """Cotangent of g in unreduce(g, x, axis, keepdims) (g spread over the reduced axes
    of x): summed back over them, in g's shape."""
    cot = np.asarray(unthunk(cot))
    summed = np.sum(cot, axis=axis, keepdims=True)
    if np.size(summed) == np.size(g):
        summed = np.reshape(summed, np.shape(g))
        return summed if isinstance(g, np.ndarray) else summed[()]
    return unbroadcast(summed, g)


@template_helper
def dict_get_jvp_vjp(g, d, key, which):
    """Cotangent of the tangent in dict_get_jvp(tangent, d, key, ans, which), linear in
    it: for d's (which 0) g at key when key is there; for the default's, g when it is not."""
    if (key in d) != (which == 0):
        return None
    return {key: unthunk(g)} if which == 0 else g


@template_helper
def terms_sum_vjp(g, own):
    """Cotangent of `own` in tangent_terms_sum(total, term) (add_tangents: None a zero,
    tuples, lists and dicts entry by entry): g in own's structure, summed to its shape."""
    g = unthunk(g)
    if own is None or g is None:
        return None
    if isinstance(own, dict):
        return {k: terms_sum_vjp(g.get(k), v) for k, v in own.items()}
    if isinstance(own, (tuple, list)):
        return type(own)(terms_sum_vjp(c, v) for c, v in zip(g, own))
    return unbroadcast(g, own)
