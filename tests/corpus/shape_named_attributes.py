"""User attributes named like ndarray attributes (shape, size, ndim, dtype, nbytes,
strides, itemsize): they carry derivatives unless the receiver is an array or a number.
The red team's programs (attr26_redteam class_01, class_02, class_18, mix_01, attr_01)
each had a silent zero gradient for such an attribute."""
import math
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from .case import case, floats


class Gamma:
    def __init__(self, shape, rate):
        self.shape = shape
        self.rate = rate

    def mean(self):
        return self.shape / self.rate

    def var(self):
        return self.shape / self.rate ** 2


@case(floats((), (), offset=2.0))
def plain_class_shape(a, b):
    d = Gamma(a, b)
    return d.shape * d.rate


@case(floats((), (), offset=2.0))
def shape_read_inside_methods(a, b):
    d = Gamma(a, b)
    return d.mean() + d.var() + d.shape * 0.5


@dataclass
class GammaRecord:
    shape: float
    rate: float

    def logpdf(self, x):
        return self.shape * math.log(self.rate) - math.lgamma(self.shape) + \
            (self.shape - 1) * math.log(x) - self.rate * x


@case(floats((), (), offset=2.0, scale=0.2))
def dataclass_shape_field(a, b):
    d = GammaRecord(shape=a, rate=b)
    return sum(d.logpdf(x) for x in [0.5, 1.2, 2.0])


class InvGamma:
    def __init__(self, alpha, beta):
        self.alpha = alpha
        self.beta = beta

    @property
    def shape(self):
        return self.alpha

    @property
    def size(self):
        return self.beta

    def mean(self):
        return self.size / (self.shape - 1)


@case(floats((), (), offset=3.0, scale=0.2))
def properties_named_shape_and_size(a, b):
    d = InvGamma(a, b)
    return d.mean() + d.shape * d.size


class Weibull(NamedTuple):
    shape: float
    scale: float


def weibull_logpdf(d, x):
    k, lam = d.shape, d.scale
    return math.log(k / lam) + (k - 1) * math.log(x / lam) - (x / lam) ** k


@case(floats((), (), offset=1.5, scale=0.1))
def namedtuple_shape_field_through_a_helper(k, lam):
    d = Weibull(k, lam)
    return sum(weibull_logpdf(d, x) for x in [0.5, 1.1, 2.0])


class Everything:
    def __init__(self, v):
        self.shape, self.size, self.ndim, self.dtype = v[0], v[1], v[2], v[3]
        self.nbytes, self.strides, self.itemsize = v[4], v[5], v[6]


def total(e):
    return e.shape * e.size + e.ndim * e.dtype + e.nbytes * e.strides + e.itemsize


@case(floats((7,)))
def every_array_attribute_name_on_an_object_argument(v):
    return total(Everything(v)) + np.sum(v) * v.shape[0] * v.ndim


@case(floats((4,), ()))
def array_shape_in_a_loop_beside_an_object_shape(x, a):
    d = Gamma(a, 2.0)
    s = 0.0
    for i in range(x.shape[0]):
        s = s + x[i] * d.shape * x.size
    return s


@dataclass
class Pair:
    T: float
    w: float


@case(floats(()))
def dataclass_field_named_T(a):
    # (`.T` was np.transpose's rule whatever the receiver: a crash)
    d = Pair(a, a)
    return d.T * 2.0 + d.w


class Layer:
    def __init__(self, W, b):
        self.W = W
        self.b = b
        self.T = W.T

    def sum(self, x):
        return np.tanh(self.W @ x + self.b)

    def dot(self, x):
        return self.T @ x


@case(floats((2, 2), (2,), (2,)))
def attribute_T_holding_a_transpose(W, b, x):
    L = Layer(W, b)
    h = L.sum(x)
    return np.sum(L.dot(h) ** 2)


class Buffer:
    def __init__(self, a):
        self.a = a

    def fill(self, k):
        return self.a * 3.0 * k


def _value_and_buffer(rng):
    return [float(rng.normal()), Buffer(5.0)]


@case(_value_and_buffer, wrt=(0,))
def method_named_fill_on_an_object_argument(a, obj):
    # (the argument was copied on entry as an array written by `.fill`: `obj.copy()`)
    return obj.fill(a) * a


@dataclass
class Pendulum:
    g: float
    L: float
    damping: float = 0.0

    def rhs(self, y):
        th, om = y
        return np.array([om, -self.g / self.L * np.sin(th) - self.damping * om])


@case(floats((), (), (2,), offset=2.0))
def dataclass_field_named_g(g, L, y0):
    # (refused: `g` clashed with the rule template's name for the cotangent)
    p = Pendulum(g, L)
    q = Pendulum(g=L, L=g, damping=0.1)
    return np.sum(p.rhs(y0) * q.rhs(y0)) + p.g * q.L


class Fit(NamedTuple):
    ans: float
    g: float


@case(floats((), ()))
def namedtuple_fields_named_ans_and_g(a, b):
    r = Fit(a * b, g=np.sin(a))
    return r.ans * r.g + r[0]


@dataclass
class Dataset:
    data: np.ndarray
    weights: np.ndarray


@case(floats((2,)))
def dataclass_field_named_data(w):
    # (refused as an ndarray's raw memory `.data`)
    ds = Dataset(np.array([1.0, 2.0]) * w, w)
    return np.sum(ds.data * ds.weights)
