"""Session 36 (noticed): programs once refused or crashing, each now run through grad,
jvp or hvp and checked against central differences (test_noticed36.py)."""
import copy
import functools
from dataclasses import dataclass

import numpy as np


def _neg_piece(v, wrt=1.0, policy=2.0):
    return np.sin(v) * wrt * policy


def _pos_piece(v, wrt=1.0, policy=2.0):
    return v ** 2 * wrt + policy


def piecewise_keywords_named_like_vjp(x):
    """np.piecewise's keywords reach the pieces: `wrt` and `policy` are theirs, not the
    runtime's (runtime/callees.py's value_vjp takes its own positionally)."""
    return np.sum(np.piecewise(x, [x < 0], [_neg_piece, _pos_piece], wrt=3.0, policy=0.5))


class _Squash:
    def __call__(self, h):
        return np.tanh(self.transform(h))

    def energy(self, h, scale):
        return scale * np.sum(self(h) ** 2)


@dataclass
class _Linear(_Squash):
    W: np.ndarray

    def transform(self, h):
        return self.W @ h


@dataclass
class _Doubled(_Linear):
    def __call__(self, h):
        return super().__call__(h) * 2.0

    def energy(self, h, scale):
        return super(_Doubled, self).energy(h * 0.5, scale) + np.sum(self.W * h)


H = np.array([0.3, -0.2, 0.5])


def super_call_of_differentiated_object(m):
    """super() in methods of an object whose weights are differentiated: a `super` proxy
    carries no derivative, the rewrite (frontend/super_calls.py) passes the object."""
    return np.sum(m(H) * m.W[0]) + m.energy(np.cos(H), 1.5)


def super_call_on_argument(h):
    return np.sum(_Doubled(W3)(h) * h) + _Doubled(W3).energy(h, 0.5)


class _Stored(_Linear):
    def __call__(self, h):
        call = super().__call__
        return call(h) * 2.0


def super_method_read_as_value(m):
    return np.sum(_Stored(m)(H))


W3 = np.array([[0.5, -0.3, 0.2], [0.1, 0.4, -0.6], [-0.2, 0.3, 0.7]])


def _scaled(x, *, scale):
    return np.sum(np.sin(x) * scale)


def _weighted(x, *, y, scale=1.0):
    return np.sum(np.sin(x) * y) * scale


KW = {"scale": 0.5}


def partial_binding_float_keyword(x):
    """A partial's float keyword (a constant) reaches a keyword-only parameter."""
    g = functools.partial(_scaled, scale=0.5)
    return g(x) * np.sum(x)


def partial_binding_differentiated_keyword(x):
    g = functools.partial(_scaled, scale=x[0] * 2.0)
    return g(np.cos(x)) + np.sum(x ** 2)


def keyword_only_through_spread_dict(x):
    """A differentiated value reaches a keyword-only parameter through `**params`."""
    p = {"y": x * 2.0}
    return _weighted(x, **p)


def keyword_only_passed_directly(x):
    return _weighted(np.cos(x), y=x ** 2, scale=x[1])


def helper_with_constant_keywords(x):
    """`helper(x, **KW)`, KW a module-level dict of constants."""
    return _scaled(x, **KW) * np.sum(x)


def dict_with_spread_keywords(x):
    """`dict(p, **q)`: the display Python builds, `{**dict(p), **q}` (frontend/dict_calls)."""
    p = {"a": x * 2.0}
    q = {"b": np.sin(x)}
    d = dict(p, **q)
    e = dict(**q, c=x[0])
    return np.sum(d["a"] * d["b"] * e["b"]) * e["c"]


def dict_of_pairs_with_spread_keywords(x):
    d = dict([("a", x), ("b", x * 3.0)], **{"b": np.cos(x)})
    return np.sum(d["a"] * d["b"])


def _kw_helper(x, *, w):
    return np.sin(w * x) * x


def scalar_keyword_calls(x):
    """A keyword-only parameter given a differentiated value: grad of grad runs reverse
    mode over call_jvp_keywords; a third derivative is refused (no rule for its JVP's
    reverse)."""
    return _kw_helper(x, w=x * 1.3) ** 2 + x * _kw_helper(x, w=0.4)


class _Params:
    def __init__(self, w, b):
        self.w = w
        self.b = b

    def copy(self):
        return _Params(self.w.copy(), self.b)

    def clone(self):
        return _Params(self.w.copy(), self.b)

    def loss(self, x):
        return np.sum(np.tanh(self.w * x) + self.b)


def _own_copy(p, x):
    q = p.copy()
    return q.loss(x) * np.sum(p.w)


def own_copy_method(x):
    """`p.copy()`, the class's own method, p carrying a tangent: refused in forward mode
    at the call (grad runs it)."""
    return _own_copy(_Params(x * 2.0, 0.5), x)


def _cloned(p, x):
    q = p.clone()
    return q.loss(x) * np.sum(p.w)


def own_method_named_otherwise(x):
    return _cloned(_Params(x * 2.0, 0.5), x)


@dataclass
class _Record:
    w: np.ndarray
    b: float


def copies_of_a_dataclass(x):
    r = _Record(x * 2.0, 0.5)
    q, s = copy.copy(r), copy.deepcopy(r)
    return np.sum(np.sin(q.w * x)) * s.b + np.sum(s.w ** 2)


class _Scaler:
    factor = 2.5                  # a class's constant: no part of any object's state

    def __init__(self, w):
        self.w = w

    def __call__(self, x):
        return self.w * x * self.factor


def class_constant_through_a_built_object(x):
    """`s.factor` of an object built in the function reads the class's constant (grad
    raised "no derivative through the attribute .factor of a record built in the code")."""
    s = _Scaler(x * 2.0)
    return np.sum(s(x)) + s.factor * np.sum(x ** 2)


@dataclass
class _Rated:
    w: np.ndarray
    rate = 0.3                    # no annotation: a class attribute, not a field


def class_constant_of_an_argument(r):
    return np.sum(np.sin(r.w) * r.rate) + r.rate * np.sum(r.w ** 2)


class _Cell:
    def __init__(self):
        self.h = np.zeros(3)

    def step(self, x):
        self.h = np.tanh(self.h + x)
        return self.h


def method_setting_attributes_in_statements(x):
    """`m = M()` with no arguments, then `m.step(x)` in statements of their own: runs."""
    m = _Cell()
    m.step(x)
    h = m.step(x * 2.0)
    return np.sum(h * m.h)


def method_setting_attributes_inside_an_expression(x):
    m = _Cell()
    m.step(x)
    return np.sum(m.step(x * 2.0))
