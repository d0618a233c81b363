"""Issue 16, objects: classes with their own `__init__` built inside the function being
differentiated from differentiated values (`m = MLP(W, b)`), their methods, `__call__`
and properties then used; objects in lists, made by helpers, passed to helpers. Scalar
and array variants, every policy, against finite differences. An `__init__` that
uses `self` other than by setting and reading its attributes stays refused."""
from dataclasses import dataclass

import numpy as np

from .case import case, floats, refused
from .data_values import both


class Affine:
    def __init__(self, w, b, scale=1.0):
        self.w = w
        self.b = b * scale

    def __call__(self, x):
        return np.tanh(self.w * x + self.b)

    def energy(self):
        return np.sum(self.w * self.w) + np.sum(self.b)


@both
def built_then_called(x):
    layer = Affine(x * 2.0, np.sin(x))
    return np.sum(layer(x)) + layer.energy()


@both
def built_with_keywords_and_default(x):
    layer = Affine(b=np.cos(x), w=x, scale=3.0)
    return np.sum(layer(1.5) * layer.b)


class Gaussian:
    """A distribution whose constructor computes from its arguments."""

    def __init__(self, mu, log_s):
        self.mu = mu
        self.s = np.exp(log_s)
        self.var = self.s ** 2            # reads an attribute set on an earlier line

    def logpdf(self, v):
        return -0.5 * (v - self.mu) ** 2 / self.var - np.log(self.s)

    def mean(self):
        return self.mu


@both
def constructor_computes(x):
    d = Gaussian(x * 0.5, np.sin(x))
    return np.sum(d.logpdf(1.0)) + np.sum(d.mean() * x)


class Stack:
    def __init__(self, weights, bias):
        self.layers = []
        for w in weights:
            self.layers.append(w * bias)
        self.n, self.bias = len(weights), bias

    def forward(self, v):
        for w in self.layers:
            v = np.tanh(w * v)
        return v + self.bias


@both
def constructor_with_loop_and_list(x):
    net = Stack([x, np.cos(x), x * x], np.sin(x))
    return np.sum(net.forward(x)) * net.n


class Pair:
    def __init__(self, a, b):
        self.a, self.b = a, b

    @property
    def product(self):
        return self.a * self.b


@both
def tuple_assignment_and_property(x):
    p = Pair(np.exp(x), x)
    return np.sum(p.product + p.a)


@both
def objects_in_a_list(x):
    pairs = [Pair(x * k, np.sin(x)) for k in range(1, 4)]
    total = 0.0
    for p in pairs:
        total = total + np.sum(p.product)
    return total


def make_gaussian(m):
    return Gaussian(m, m * 0.1)


def nll(d, v):
    return -np.sum(d.logpdf(v))


@both
def made_in_helper_used_in_helper(x):
    d = make_gaussian(np.tanh(x))
    return nll(d, x * 0.3) + nll(make_gaussian(x), 0.5)


@both
def built_in_loop_carrying_state(x):
    d = Gaussian(x, 0.0 * x)
    for _ in range(3):
        d = Gaussian(d.mean() * 0.5 + x, np.log(d.s) + 0.1)
    return np.sum(d.logpdf(x))


class Base:
    def __init__(self, w):
        self.w = w


class Derived(Base):
    def __init__(self, w):
        super().__init__(w * 2.0)


@both
def subclass_calling_super(x):                 # the base's __init__ inlined
    return np.sum(Derived(x).w)


class Registers:
    def __init__(self, w):
        self.w = w
        self.check()

    def check(self):
        assert self.w is not None


@refused(floats((3,)), "__init__ calls a method on self")
def init_calls_a_method(x):
    return np.sum(Registers(x).w)


class Shares:
    def __init__(self, w, registry):
        self.w = w
        registry.append(self)


@refused(floats((3,)), "__init__ passes self on")
def init_passes_self(x):
    seen = []
    return np.sum(Shares(x, seen).w)


@dataclass
class Scaled:
    w: object
    s: object = 2.0

    def __post_init__(self):
        self.w = self.w * self.s          # replaces a field from the others
        self.norm = np.sum(self.w ** 2)   # and adds one


@both
def dataclass_post_init(x):
    p = Scaled(np.sin(x), x)
    return p.norm + np.sum(p.w * p.s)


@both
def dataclass_post_init_default(x):
    return Scaled(x).norm


class SometimesSet:
    w = 5.0                              # read when __init__ does not set it

    def __init__(self, v, flag):
        if flag:
            self.w = v * 2.0
        self.v = v


def _x_and_false(rng):
    return [rng.standard_normal(3), False]


@refused(_x_and_false, "an attribute set on some paths only (Python reads the class's)",
         wrt=(0,))
def attribute_set_on_some_paths(x, flag):
    a = SometimesSet(x, flag)
    return np.sum(a.w * a.v)
