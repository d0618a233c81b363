"""ML-style classes whose methods forward mode compiles (session 35): an MLP with a
forward method, a layer list called through `__call__`, a model with a loss method
calling its own predict, a dataclass with a method and a property, a method that
changes the object it is called on, static and class methods, a NumPy function or a
closure stored on the object, methods called through the class (`type(a).total(a)`).
Used by tests/forward/test_object_methods.py."""
import dataclasses

import numpy as np


class MLP:
    def __init__(self, W1, W2):
        self.W1 = W1
        self.W2 = W2

    def forward(self, x):
        h = np.tanh(self.W1 @ x)
        return self.W2 @ h


class Dense:
    def __init__(self, W, b):
        self.W = W
        self.b = b

    def __call__(self, x):
        return np.tanh(self.W @ x + self.b)


class Sequential:
    def __init__(self, layers):
        self.layers = layers

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


class Regressor:
    def __init__(self, layers, scale):
        self.layers = layers
        self.scale = scale

    def predict(self, x):
        h = x
        for layer in self.layers:
            h = layer(h)
        return self.scale * h

    def loss(self, x, y):
        return np.mean((self.predict(x) - y) ** 2) + self.penalty()

    def penalty(self):
        return 0.01 * sum(np.sum(layer.W ** 2) for layer in self.layers)


@dataclasses.dataclass
class Affine:
    W: np.ndarray
    shift: float

    def apply(self, x):
        return np.sin(self.W @ x) + self.shift

    @property
    def size(self):
        return np.sum(self.W ** 2)


class Accumulator:
    def __init__(self, W):
        self.W = W
        self.total = 0.0

    def add(self, x):
        self.total = self.total + np.sum(np.tanh(self.W @ x))

    def add_and_read(self, x):
        self.total = self.total + np.sum(self.W @ x)
        return self.total


class Scaled:
    def __init__(self, w):
        self.w = w

    @staticmethod
    def twice(v):
        return 2.0 * v

    def run(self, x):
        return self.twice(self.w * x)


def mlp_loss(W1, W2, x):
    model = MLP(W1, W2)
    return np.sum(model.forward(x) ** 2)


def mlp_out(W1, W2, x):
    return MLP(W1, W2).forward(x)


def sequential_loss(W1, b1, W2, b2, x):
    net = Sequential([Dense(W1, b1), Dense(W2, b2)])
    return np.sum(net(x) ** 2)


def regressor_loss(W1, b1, W2, b2, x, y):
    model = Regressor([Dense(W1, b1), Dense(W2, b2)], 1.5)
    return model.loss(x, y)


r = np.random.default_rng(35)
MODEL = Regressor([Dense(r.normal(size=(3, 2)), r.normal(size=3)),
                   Dense(r.normal(size=(2, 3)), r.normal(size=2))], 0.5)


def fixed_model_loss(x, y):
    return MODEL.loss(x, y)


def affine_loss(W, x):
    a = Affine(W, 0.5)
    return np.sum(a.apply(x) ** 2) + a.size


def affine_argument(a, x):
    return np.sum(a.apply(x) * x[0])


def accumulated(W, x):
    acc = Accumulator(W)
    acc.add(x)
    acc.add(2.0 * x)
    return acc.total


def accumulated_in_an_expression(W, x):
    acc = Accumulator(W)
    return acc.add_and_read(x) * 2.0


def static_helper(w, x):
    return np.sum(Scaled(w).run(x))


class Activated:
    def __init__(self, W, activation):
        self.W = W
        self.activation = activation

    def __call__(self, x):
        return self.activation(self.W @ x)


def stored_activation(W, x):
    layer = Activated(W, np.tanh)
    return np.sum(layer(x))


class Prod:
    factor = 2.0

    def __init__(self, w):
        self.w = w

    @classmethod
    def scaled(cls, v):
        return cls.factor * v

    def run(self, x):
        return np.sum(self.scaled(self.w * x) ** 2)


def class_method_helper(w, x):
    return Prod(w).run(x)


class Gate:
    def __init__(self, fn):
        self.fn = fn

    def __call__(self, x):
        return self.fn(x)


def stored_closure(w, x):
    gate = Gate(lambda v: np.tanh(w * v))
    return np.sum(gate(x))


class Vec:
    def __init__(self, v):
        self.v = v

    def __call__(self, x):
        return self.v * x

    def scaled(self, k):
        return Vec(self.v * k)

    def total(self):
        return np.sum(self.v ** 2)


def through_the_class(v, x):
    first = Vec(v)
    cls = type(first)
    made = cls(first.v * x)                   # the class called: an object, not its __call__
    return cls.total(made) + cls.scaled(made, 2.0).total()


class Normalised:
    eps = 1e-3                          # a class's own value: no derivative

    def __init__(self, w):
        self.w = w

    def __call__(self, x):
        return self.w * x / np.sqrt(np.sum(x ** 2) + self.eps)


def class_constant(w, x):
    return np.sum(Normalised(w)(x))
