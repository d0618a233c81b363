"""Issue 16, data: functions kept as values: lambdas reading only their parameters and
globals in lists and dicts (called by index or in a loop), passed to helpers, returned
by helpers; bound methods as values (`f = model.forward`, of a module-level object and
of an argument being differentiated); callable objects in a list. Scalar and array
inputs against finite differences; a lambda or nested def that reads a local of the
function is a closure record (tests/corpus/closures.py has the rest)."""
from dataclasses import dataclass

import numpy as np

from .case import case, floats, mixed, refused
from .data_values import both


def sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


@both
def lambdas_in_a_list(x):
    acts = [np.tanh, lambda z: z * sigmoid(z)]
    return np.sum(acts[0](x) + acts[1](x))


@both
def lambdas_applied_in_a_loop(x):
    acts = [np.tanh, lambda z: z * sigmoid(z), lambda z: z * z]
    h = x
    for act in acts:
        h = act(h)
    return np.sum(h)


@both
def lambdas_in_a_dict(x):
    acts = {"t": np.tanh, "s": lambda z: z * z}
    return np.sum(acts["t"](x) + acts["s"](x) * acts["s"](np.sin(x)))


@both
def same_lambda_in_two_slots(x):
    square = lambda z: z * z      # noqa: E731  (kept as a value: not inlined)
    fs = [square, square]
    return np.sum(fs[0](x) * fs[1](np.cos(x)))


def apply(f, z):
    return f(z)


@both
def lambda_passed_to_a_helper(x):
    return np.sum(apply(lambda z: z * sigmoid(z), x) * x)


def activation(kind):
    if kind == "square":
        return lambda z: z * z
    return np.tanh


@both
def lambda_returned_by_a_helper(x):
    f = activation("square")
    return np.sum(f(x) + activation("tanh")(x))


class Scaler:
    def __init__(self, s):
        self.s = s

    def forward(self, z):
        return z * self.s

    def run(self, z):
        f = self.forward
        return np.sum(f(z) * f(z * 2.0))

    def __call__(self, z):
        return np.tanh(z) * self.s


SCALER = Scaler(3.0)


@both
def bound_method_as_value(x):
    f = SCALER.forward
    return np.sum(f(x) * x)


@both
def bound_method_passed_to_a_helper(x):
    return np.sum(apply(SCALER.forward, x) * x)


@both
def method_taking_its_own_method(x):
    return SCALER.run(x)


@both
def callable_objects_in_a_list(x):
    layers = [SCALER, Scaler(0.5)]
    h = x
    for layer in layers:
        h = layer(h)
    return np.sum(h)


@dataclass
class Linear:
    w: object

    def forward(self, z):
        return np.tanh(self.w * z)


def _linear_and_x(rng):
    return [Linear(rng.standard_normal(3)), rng.standard_normal(3)]


@case(mixed(_linear_and_x))
def method_of_a_differentiated_argument(layer, x):
    f = layer.forward
    return np.sum(f(x) * layer.w)


@both                     # (was refused: closures are records now)
def lambda_reading_a_local(x):
    w = x * 2.0
    acts = [np.tanh, lambda z: z * w]
    return np.sum(acts[1](x))


@refused(floats((3,)), "the lambda reads k, rebound after it is made")
def lambda_reading_a_rebound_local(x):
    k = 2.0
    fs = [lambda z: z * k]
    k = 3.0
    return np.sum(fs[0](x))


@both                     # (was refused: closures are records now)
def lambda_to_a_helper_reading_a_local(x):
    return np.sum(apply(lambda z: z * x, x))


def make_loss(w):
    def loss(z):
        return np.sum(w * z)
    return loss


@both                     # (was refused: closures are records now)
def closure_returned_by_a_helper(x):
    f = make_loss(x * 2.0)
    return f(x)


@both                     # (was refused: closures are records now)
def nested_def_to_a_helper(x):
    def g(z):
        return z * x
    return np.sum(apply(g, x))


def apply_all(fs, x):
    total = 0.0
    for f in fs:
        total = total + np.sum(f(x))
    return total


@both
def lambdas_in_a_list_given_to_a_helper(x):
    fs = [lambda z: z * z, np.sin, lambda z: np.exp(-z)]
    return apply_all(fs, x)


@both
def lambda_appended_to_a_list(x):
    fs = []
    fs.append(lambda t: t * 2.0)
    fs.append(np.cos)
    return np.sum(fs[0](x) * fs[1](x))
