"""red2 (session 35) programs: user objects' methods, closures, partials and spread calls
mixed, written the way users write models. Each takes the differentiated value first."""
import functools
from dataclasses import dataclass

import numpy as np


class Dense:
    def __init__(self, W, b):
        self.W = W
        self.b = b

    def __call__(self, h):
        return np.tanh(self.W @ h + self.b)


class Model:
    def __init__(self, layers):
        self.layers = layers

    def __call__(self, x):
        h = x
        for layer in self.layers:
            h = layer(h)
        return h

    def forward_all(self, x):
        h = x
        for layer in self.layers:
            h = layer(h)
            yield h

    def sum_of(self, *xs):
        total = 0.0
        for x in xs:
            total = total + np.sum(self(x))
        return total


R = np.random.default_rng(7)
L1 = Dense(R.normal(size=(3, 3)) * 0.6, R.normal(size=3) * 0.1)
L2 = Dense(R.normal(size=(3, 3)) * 0.6, R.normal(size=3) * 0.1)
MODEL = Model([L1, L2])


def model_loop(x):
    return MODEL(x)


def model_loop_scalar(x):
    return np.sum(MODEL(x) ** 2)


def model_built_inside(x, W, b):
    m = Model([Dense(W, b), Dense(W.T, b)])
    return np.sum(m(x) ** 2)


def method_star_args(x):
    return MODEL.sum_of(x, 2.0 * x, x ** 2)


def closure_over_model(x):
    def run(v):
        return MODEL(v) * 2.0
    return np.sum(run(x) ** 2)


def partial_of_method(x):
    f = functools.partial(MODEL.sum_of, x)
    return f(np.sin(x))


def _apply_star(fn, *xs):
    return fn(*xs)


def bound_method_helper_star(x):
    return _apply_star(MODEL.sum_of, x, np.cos(x))


def generator_method(x):
    total = 0.0
    for h in MODEL.forward_all(x):
        total = total + np.sum(h * h)
    return total


def generator_method_list(x):
    return np.concatenate(list(MODEL.forward_all(x)))


ACTS = {"tanh": np.tanh, "soft": lambda z: np.log1p(np.exp(z)), "sq": lambda z: z * z}


def lambda_in_dict(x):
    return np.sum(ACTS["soft"](x) + ACTS["sq"](x))


def lambda_in_local_dict(x, a):
    acts = {"scaled": lambda z: a * np.tanh(z), "sq": lambda z: z * z}
    return acts["scaled"](x) + acts["sq"](x)


class Gate:
    def __init__(self, scale):
        self.scale = scale

    def __call__(self, x):
        s = self.scale
        f = lambda z: s * np.sin(z)
        return f(x) + x


def call_calls_closure(x):
    return np.sum(Gate(1.5)(x) ** 2)


class Poly:
    def __init__(self, coeffs):
        self.coeffs = coeffs

    def horner(self, x, i):
        if i == len(self.coeffs) - 1:
            return self.coeffs[i] * np.ones_like(x)
        return self.coeffs[i] + x * self.horner(x, i + 1)


def recursion_method(x):
    return Poly([1.0, -0.5, 0.25, 0.1]).horner(x, 0)


@dataclass
class Affine:
    W: np.ndarray
    b: np.ndarray

    def apply(self, x):
        return self.W @ x + self.b

    def energy(self, x):
        return 0.5 * np.sum(self.apply(x) ** 2)


AFF = Affine(R.normal(size=(3, 3)), R.normal(size=3))


def dataclass_method(x):
    return AFF.energy(x)


def dataclass_wrt(aff, x):
    return aff.energy(x)


def reduce_over_layers(x):
    return functools.reduce(lambda h, layer: layer(h), MODEL.layers, x)


def reduce_scalar(x):
    h = functools.reduce(lambda h, layer: layer(h), [L1, L2, L1], x)
    return np.sum(h)


@dataclass
class Scaler:
    alpha: float
    beta: float

    def __call__(self, x):
        return self.alpha * np.sin(x) + self.beta * x ** 2


def float_attr_obj_wrt(s, x):
    return np.sum(s(x))


def float_attr_obj_built(a, x):
    s = Scaler(a, 2.0 * a)
    return np.sum(s(x))


class Counter:
    @staticmethod
    def square(x):
        return x * x

    @classmethod
    def cube(cls, x):
        return cls.square(x) * x


def static_class_methods(x):
    return np.sum(Counter.square(x) + Counter.cube(x))


def _make_scaled(model, c):
    def f(v):
        return c * model(v)
    return f


def closure_returned_by_helper(x):
    f = _make_scaled(MODEL, 3.0)
    return f(x)


def _map_fn(fn, xs):
    return [fn(v) for v in xs]


def lambda_to_helper_method(x):
    outs = _map_fn(lambda v: MODEL(v) + v, [x, 2.0 * x])
    return np.sum(outs[0] * outs[1])


def partial_over_value(x):
    f = functools.partial(np.dot, x)
    return f(MODEL(x))


def spread_kwargs(x):
    params = {"W": AFF.W, "b": x}
    return np.sum(Affine(**params).apply(x))


def spread_list_to_call(x):
    parts = [x, x ** 2]
    return MODEL.sum_of(*parts)


class Residual:
    def __init__(self, inner):
        self.inner = inner

    def __call__(self, h):
        return h + self.inner(h)


def residual_nested_objects(x):
    m = Model([Residual(L1), Residual(L2)])
    return m(x)


class Stack:
    def __init__(self, fns):
        self.fns = fns

    def __call__(self, x):
        for f in self.fns:
            x = f(x)
        return x


def object_holding_lambdas(x):
    s = Stack([lambda z: np.sin(z), L1, functools.partial(np.multiply, 2.0)])
    return s(x)


def _twice(fn, x):
    return fn(fn(x))


def bound_call_to_helper(x):
    return np.sum(_twice(L1, x) ** 2)


def bound_method_value(x):
    f = AFF.apply
    return np.sum(np.tanh(f(x)))


def method_kw_named_fn(x):
    return _kw_helper(fn=MODEL, tangents=x, obj=2.0, args=x)


def _kw_helper(fn, tangents, obj, args):
    return np.sum(fn(tangents) * obj + args ** 2)


class Acc:
    def __init__(self):
        self.total = 0.0

    def add(self, v):
        self.total = self.total + np.sum(v)
        return self


def method_mutating_local(x):
    a = Acc()
    for layer in MODEL.layers:
        a.add(layer(x))
    return a.total


def generator_helper_of_layers(x):
    def gen(h):
        for layer in [L1, L2]:
            h = layer(h)
            yield h
    return sum(np.sum(h) for h in gen(x))


def star_args_method_kwargs(x):
    return _kwcall(MODEL.sum_of, x, np.tanh(x), scale=2.0)


def _kwcall(fn, *args, scale=1.0):
    return scale * fn(*args)


def closure_in_loop_over_layers(x):
    fs = []
    for layer in MODEL.layers:
        fs.append(lambda v, layer=layer: layer(v) * 2.0)
    return np.sum(fs[0](x) + fs[1](x))


def type_dispatch(x):
    return type(AFF).energy(AFF, x)


def scalar_float_method(t):
    return Scaler(1.3, 0.7)(t)


def scalar_float_closure(t):
    g = lambda s: s * np.sin(s)
    return g(t) + functools.partial(np.power, t)(3.0)


def scalar_float_layers(t):
    v = t * np.ones(3)
    return np.sum(MODEL(v))
