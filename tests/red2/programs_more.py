"""red2 (session 35) programs, more: late reads, inheritance, super(), nested recursion,
`yield from`, properties, and objects that carry tangents themselves (closures, partials,
spreads and reduce over them, bound methods as values)."""
import functools
from dataclasses import dataclass

import numpy as np

from tests.red2.programs import L1, L2, MODEL, Affine, Model, Residual, _kwcall


def residual_scalar(x):
    m = Model([Residual(L1), Residual(L2)])
    return np.sum(m(x) ** 2)


def late_binding_closure(x):
    c = 1.0
    f = lambda v: c * np.sin(v)
    c = 3.0
    return np.sum(f(x) * x)


def late_binding_loop(x):
    fs = []
    for layer in [L1, L2]:
        fs.append(lambda v: layer(v))
    return np.sum(fs[0](x) * fs[1](x))


def partial_of_partial_kw(x):
    f = functools.partial(_kwcall, MODEL.sum_of, scale=0.5)
    g = functools.partial(f, x)
    return g(np.cos(x))


class Head:
    def __init__(self, layer):
        self.layer = layer

    def scorer(self, w):
        def score(h):
            return np.dot(w, self.layer(h))
        return score


def method_returns_closure(x):
    return Head(L2).scorer(x)(x)


class Varargs:
    def __call__(self, *hs):
        return sum(np.sum(np.tanh(h)) for h in hs)


def call_with_star_args(x):
    return Varargs()(x, x * x, *[np.exp(x)])


def generator_early_stop(x):
    total = 0.0
    for i, h in enumerate(MODEL.forward_all(x)):
        if i >= 1:
            break
        total = total + np.sum(h ** 3)
    return total


def closure_captures_x_reassigned(x):
    y = x * 2.0
    f = lambda v: v * y
    y = np.sin(x)
    return np.sum(f(x))


@dataclass
class DLayer:
    W: np.ndarray
    b: np.ndarray

    def __call__(self, h):
        return np.tanh(self.W @ h + self.b)


@dataclass
class DRes:
    inner: DLayer
    gain: float

    def __call__(self, h):
        return h + self.gain * self.inner(h)


def nested_object_wrt(block, x):
    return np.sum(block(block(x)) ** 2)


def list_read_late(x):
    acc = [x]
    f = lambda: acc[-1] * 2.0
    acc.append(np.sin(x))
    return np.sum(f() * x)


def getattr_method(x):
    return getattr(MODEL, "sum_of")(x, x * 3.0)


class Scaled:
    def __init__(self, s):
        self.s = s

    def __call__(self, v):
        return self.s * v


def attribute_reassigned(x):
    m = Scaled(1.0)
    m.s = np.sin(x)
    a = m(x)
    m.s = x * x
    return np.sum(a + m(x))


class Base:
    def __call__(self, h):
        return np.tanh(self.transform(h))


class Child(Base):
    def __init__(self, W):
        self.W = W

    def transform(self, h):
        return self.W @ h


class Child2(Child):
    def __call__(self, h):
        return super().__call__(h) * 2.0


def inherited_call(x):
    return np.sum(Child(L1.W)(x) * x)


def super_call(x):
    return np.sum(Child2(L2.W)(x))


def recursive_closure(x):
    def power(v, n):
        if n == 0:
            return np.ones_like(v)
        return v * power(v, n - 1)
    return np.sum(power(x, 3))


class Chain:
    def outs(self, x):
        yield from MODEL.forward_all(x)
        yield x * 2.0


def yield_from_method(x):
    return sum(np.sum(h ** 2) for h in Chain().outs(x))


class WithProp:
    def __init__(self, w):
        self.w = w

    @property
    def w2(self):
        return self.w * self.w


def property_plain_class(x):
    return np.sum(WithProp(x).w2 * x)


def closure_over_wrt_object(block, x):
    g = lambda v: block(v)
    return np.sum(g(x) ** 2)


def partial_of_wrt_method(aff, x):
    f = functools.partial(aff.energy)
    return f(x) + functools.partial(Affine.energy, aff)(2.0 * x)


def _both(f1, f2, v):
    return f1(v) * f2(v)


def spread_wrt_objects(block, x):
    fs = [block, block.inner]
    return np.sum(_both(*fs, x))


def reduce_wrt_object(block, x):
    h = functools.reduce(lambda h, layer: layer(h), [block, block.inner, block], x)
    return np.sum(h ** 2)


def _kw_apply(layer, **opts):
    return layer(opts["v"]) * opts["scale"]


def kwargs_spread_wrt(block, x):
    opts = {"v": x, "scale": 2.0}
    return np.sum(_kw_apply(block, **opts) ** 2)


def bound_wrt_method_value(block, x):
    step = block.__call__
    return np.sum(step(step(x)))


class Child3(Child):
    def __call__(self, h):
        return Base.__call__(self, h) * 2.0


def base_method_by_name(x):
    return np.sum(Child3(L2.W)(x) ** 2)
