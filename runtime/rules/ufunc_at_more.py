"""Session 34 (carried): `np.multiply.at`, `np.divide.at`, `np.maximum.at` and
`np.minimum.at` as statements, written `a[...] = multiplied_at(a, indices, b)` and so on
by transform/frontend/ufunc_at.py, like np.add.at (ufunc_methods.py). Each output entry
j is a's entry combined with every b entry sent to j (b broadcast to a[indices]; a
repeated index applies each time), so its derivative is a weight on a[j] and one on each
such b entry (at_weights):

- multiply: a[j] * P_j, P_j the product of the b's at j: weights P_j and a[j] times the
  product of the other b's at j (exact where a b is zero);
- divide: a[j] / P_j: weights 1 / P_j and -out[j] / b_k;
- maximum/minimum: the extreme of a[j] and the b's at j: the entries equal to it share
  the derivative equally (as np.max's ties do).
"""
import numpy as np

from ..helpers import unbroadcast
from ..registry import defvjp, template_helper


def _applied(ufunc):
    def at(a, indices, b):
        out = np.array(a, copy=True)
        ufunc.at(out, indices, b)
        return out
    return at


multiplied_at, divided_at = _applied(np.multiply), _applied(np.divide)
maximized_at, minimized_at = _applied(np.maximum), _applied(np.minimum)
for _fn, _name in ((multiplied_at, "multiplied_at"), (divided_at, "divided_at"),
                   (maximized_at, "maximized_at"), (minimized_at, "minimized_at")):
    _fn.__name__ = _fn.__qualname__ = _name
    _fn.__doc__ = f"`np.{_name[:-5]}.at(a, indices, b)` as a value: a copy of `a` changed."


def _places(a, indices, b):
    """The flat place in `a` of each entry of a[indices], and b broadcast to them."""
    at = np.arange(np.size(a)).reshape(np.shape(a))[indices]
    return at, np.ravel(at), np.ravel(np.broadcast_to(b, np.shape(at)))


def _others(place, bs, size):
    """For each b entry: the product of the other b entries sent to its place."""
    zero = bs == 0
    safe = np.where(zero, 1, bs)
    product = np.ones(size, dtype=np.result_type(bs, 1.0))
    np.multiply.at(product, place, safe)
    zeros = np.zeros(size, dtype=int)
    np.add.at(zeros, place, zero)
    return np.where(zeros[place] - zero > 0, 0, product[place] / safe)


def at_weights(ans, a, indices, b, kind):
    """(weights of a's entries, shaped like a; weights of the b entries, flat; their
    places; the shape of a[indices])."""
    at, place, bs = _places(a, indices, b)
    a_flat, out = np.ravel(np.asarray(a)), np.ravel(np.asarray(ans))
    dtype = np.result_type(a, b, 1.0)
    if kind == "multiply":
        factor = np.ones(np.size(a), dtype=dtype)
        np.multiply.at(factor, place, bs)
        on_a, on_b = factor, a_flat[place] * _others(place, bs, np.size(a))
    elif kind == "divide":
        factor = np.ones(np.size(a), dtype=dtype)
        np.multiply.at(factor, place, bs)
        on_a, on_b = 1 / factor, -out[place] / bs
    else:                                    # maximum, minimum: the tied entries share
        won_a, won_b = a_flat == out, bs == out[place]
        count = won_a.astype(dtype)
        np.add.at(count, place, won_b)
        on_a, on_b = won_a / count, won_b / count[place]
    return (np.reshape(on_a, np.shape(a)).astype(dtype), np.asarray(on_b, dtype=dtype),
            place, np.shape(at))


@template_helper(pure=True)
def at_b_vjp(g, ans, a, indices, b, kind):
    """Cotangent of b: g at each b entry's place times its weight, summed to b's shape."""
    _, on_b, place, shape = at_weights(ans, a, indices, b, kind)
    g = np.ravel(np.broadcast_to(np.asarray(g), np.shape(a)))
    return unbroadcast(np.reshape(g[place] * on_b, shape), b)


@template_helper(pure=True)
def at_a_weight(ans, a, indices, b, kind):
    """The weight of each entry of a (its cotangent is g times it)."""
    return at_weights(ans, a, indices, b, kind)[0]


@template_helper(pure=True)
def at_b_jvp(t, ans, a, indices, b, kind):
    """Tangent of the output from b's: each b entry's tangent times its weight, added
    at its place."""
    _, on_b, place, shape = at_weights(ans, a, indices, b, kind)
    t = np.ravel(np.broadcast_to(t, shape))
    out = np.zeros(np.size(a), dtype=np.result_type(on_b, t))
    np.add.at(out, place, t * on_b)
    return np.reshape(out, np.shape(a))


for _fn, _kind in ((multiplied_at, "multiply"), (divided_at, "divide"),
                   (maximized_at, "maximum"), (minimized_at, "minimum")):
    defvjp(_fn, "a, indices, b", f"g * at_a_weight(ans, a, indices, b, {_kind!r})", None,
           f"at_b_vjp(g, ans, a, indices, b, {_kind!r})", name=f"np.{_kind}.at",
           jvp=(f"t_a * at_a_weight(ans, a, indices, b, {_kind!r})", None,
                f"at_b_jvp(t_b, ans, a, indices, b, {_kind!r})"))
