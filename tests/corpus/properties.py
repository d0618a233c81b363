"""Issue 16, computed attributes: `@property` and functools.cached_property read on
values being differentiated (an argument object, a dataclass argument, a record built
in the code, inside a helper and a method) are differentiated through the getter,
never as if the class stored a field of that name."""
import functools
from dataclasses import dataclass

import numpy as np

from .case import case, floats, mixed
from .data_values import both


class Layer:
    def __init__(self, w, b):
        self.w, self.b = w, b

    @property
    def scale(self):
        return np.tanh(self.w) * self.b

    @property
    def energy(self):                      # a property reading a property
        return np.sum(self.scale ** 2) + np.sum(self.w)

    def apply(self, x):
        return self.scale * x


def _layer_and_x(rng):
    return [Layer(rng.standard_normal(3), rng.standard_normal(3)), rng.standard_normal(3)]


@case(mixed(_layer_and_x))
def property_of_argument_object(layer, x):
    return np.sum(layer.scale * x) + layer.energy


@case(mixed(_layer_and_x))
def property_read_in_method(layer, x):
    return np.sum(layer.apply(x) ** 2)


def energy_of(layer):
    return layer.energy * 0.5


@case(mixed(_layer_and_x))
def property_read_in_helper(layer, x):
    return energy_of(layer) + np.sum(x * layer.b)


@dataclass
class Spring:
    k: object
    x0: object

    @property
    def stiffness(self):
        return self.k ** 2 + 1.0


@case(mixed(lambda rng: [Spring(rng.standard_normal(3), rng.standard_normal(3))],
            floats((3,))))
def property_of_dataclass_argument(s, x):
    return np.sum(s.stiffness * (x - s.x0) ** 2)


@both
def property_of_record_built_here(x):
    s = Spring(np.sin(x), x * 2.0)
    return np.sum(s.stiffness * s.x0)


class Cached:
    def __init__(self, w):
        self.w = w

    @functools.cached_property
    def norm2(self):
        return np.sum(self.w ** 2)


@case(mixed(lambda rng: [Cached(rng.standard_normal(3))], floats((3,))))
def cached_property_of_argument(c, x):
    return c.norm2 * np.sum(x) + c.norm2       # the second read is the cached value
