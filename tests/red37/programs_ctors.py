"""red37: constructors users write: a base __init__ computing derived attributes, a
subclass overwriting one after super().__init__, classmethod constructors on inherited
__init__s, type(self)(...) on subclasses, dataclass default_factory fields, closures
with late binding and default arguments captured at definition."""
import dataclasses

import numpy as np


class Quadratic:
    def __init__(self, A, b):
        self.A = A
        self.b = b
        self.scale = np.sum(A * A)

    def value(self, x):
        return 0.5 * x @ self.A @ x - self.b @ x

    @classmethod
    def diagonal(cls, d, b):
        return cls(np.diag(d), b)


class ShiftedQuadratic(Quadratic):
    def __init__(self, A, b, shift):
        super().__init__(A, b)
        self.b = self.b + shift * self.scale

    def value(self, x):
        return super().value(x) + 0.1 * self.scale


def derived_attribute_overwrite(d, x):
    q = ShiftedQuadratic(np.diag(d) + 0.5, np.ones(len(d)), 0.01)
    return q.value(x)


def classmethod_inherited(d, x):
    q = ShiftedQuadratic.diagonal(d, x * 0.5) if False else Quadratic.diagonal(d, x)
    return q.value(x) + q.scale


class Scaled(Quadratic):
    def doubled(self):
        return type(self)(self.A * 2.0, self.b)


def type_self_inherited_init(d, x):
    q = Scaled(np.diag(d), np.ones(len(d)))
    return q.doubled().value(x)


@dataclasses.dataclass
class Prior:
    scale: float = 1.0
    weights: list = dataclasses.field(default_factory=lambda: [1.0, 0.5])

    def logp(self, theta):
        return -0.5 * np.sum(theta ** 2) / self.scale ** 2


@dataclasses.dataclass
class WeightedPrior(Prior):
    def logp(self, theta):
        base = super().logp(theta)
        return base * self.weights[0] + self.weights[1] * np.sum(np.tanh(theta))


def dataclass_default_factory(theta):
    return -WeightedPrior(scale=2.0).logp(theta)


def dataclass_scale_argument(s):
    theta = np.array([0.3, -0.4, 0.5])
    return WeightedPrior(scale=s).logp(theta)


def late_binding_closure(w):
    scale = w[0]
    f = lambda v: v * scale  # noqa: E731
    scale = w[1] * 2.0
    return np.sum(f(w) ** 2)


def default_captured_at_def(w):
    def h(v, s=w[0] * 2.0):
        return np.sum(np.sin(v * s))
    return h(w) + h(w, s=w[1])


def loop_lambdas_default(w):
    terms = [lambda v, k=k: np.sum(v ** (k + 1)) for k in range(3)]
    return sum(t(w) for t in terms)


class Layer:
    def __init__(self, W, b=None):
        self.W = W
        self.b = np.zeros(W.shape[1]) if b is None else b

    def __call__(self, h):
        return np.tanh(h @ self.W + self.b)


class Dense(Layer):
    pass


class Output(Layer):
    def __call__(self, h):
        return h @ self.W + self.b


def pass_subclass_default_none(W, X):
    hidden = Dense(W)(X)
    return np.sum(Output(W.T, np.ones(W.shape[0]))(hidden) ** 2)


class Wrapped(Layer):
    def __init__(self, **kw):
        super().__init__(**kw)


def kwargs_into_super(W, X):
    return np.sum(Wrapped(W=W, b=0.1 * np.ones(W.shape[1]))(X) ** 2)


class Positive:
    def __init__(self, raw):
        self.raw = raw

    @property
    def value(self):
        return np.exp(self.raw)


class Bounded(Positive):
    def __init__(self, raw, upper):
        super().__init__(raw)
        self.upper = upper

    @property
    def value(self):
        return self.upper / (1.0 + np.exp(-self.raw))


def property_override(raw):
    a, b = Positive(raw[0]), Bounded(raw[1], 3.0)
    return a.value * b.value + np.log(b.value)


def super_init_in_loop(ws):
    total = 0.0
    for k in range(len(ws)):
        q = ShiftedQuadratic(np.eye(2) * (1.0 + ws[k] ** 2), np.array([ws[k], 1.0]), 0.1)
        total = total + q.value(np.array([0.5, -0.5]))
    return total


class Fitted:
    def __init__(self, w):
        self.w = w
        self.s = 1.0


class Preset(Fitted):
    def __init__(self, w, s):
        self.s = s                  # set before the base's __init__, which resets it
        super().__init__(w)


def attribute_before_super(w):
    c = Preset(w, 3.0)
    return np.sum(c.w ** 2) * c.s


class Defaults:
    SCALE = 2.0

    def __init__(self, w):
        self.w = w * self.SCALE


class Wider(Defaults):
    SCALE = 5.0


def class_attribute_in_init(w):
    return np.sum(np.tanh(Wider(w).w))


def _unit(v):
    return v / np.sqrt(np.sum(v * v))


class Direction:
    def __init__(self, w):
        self.w = _unit(w)


class Offset(Direction):
    def __init__(self, w, b):
        super().__init__(w)
        self.b = b


def helper_in_base_init(w):
    m = Offset(w, 0.5)
    return np.sum(np.tanh(m.w * 3.0)) + m.b


class Rescaled(Fitted):
    def __init__(self, w):
        super(Rescaled, self).__init__(w)
        self.w = self.w * self.s + 1.0


def attribute_rewritten_after_super(w):
    return np.sum(np.sin(Rescaled(w).w))
