"""Programs for session 39's noticed items (test_*.py check them against tests/fd.py)."""
import functools
from dataclasses import dataclass, field

import numpy as np


class Memory:
    """A cached_property's getter reading `self.data`: the instance's own attribute, not
    ndarray memory (found by the user_objects generator's cached_property step)."""
    def __init__(self, w, b):
        self.shape = w * b
        self.data = b

    @functools.cached_property
    def value(self):
        return np.tanh(self.shape) * self.data


def cached_reads_data(x, w):
    m = Memory(w * x, np.tanh(x))
    return np.sum(m.value * w) * np.sum(m.value) + m.data * x


@dataclass
class CachedRecord:
    w: np.ndarray

    @functools.cached_property
    def norm(self):
        return np.sqrt(np.sum(self.w ** 2))

    def energy(self, x):
        return np.sum(self.w * x) / self.norm


def cached_record_argument(m, x):
    return m.energy(x) + m.norm ** 2 + np.sum(m.w * m.norm)


@dataclass
class Orbit:
    """red38's Orbit: a field(init=False) __post_init__ sets by calling a method."""
    r: np.ndarray
    v: np.ndarray
    mu: float = 1.0
    energy: np.ndarray = field(init=False)
    count: int = field(init=False, default=0)

    def __post_init__(self):
        self.energy = self.kinetic(2.0) - self.mu / self.r
        self.count += 1

    def kinetic(self, scale):
        return 0.5 * self.speed() * scale / 2.0

    def speed(self):
        return self.v ** 2


def orbit_energy(r, v):
    o = Orbit(r, np.tanh(v), mu=1.5)
    return np.sum(o.energy * o.r) + o.count * np.sum(o.kinetic(1.0))


@dataclass
class Writer:
    r: float
    energy: float = field(init=False)

    def __post_init__(self):
        self.energy = self.bump() * self.r

    def bump(self):
        self.r = self.r * 2.0          # writes self: the object built would not see it
        return 1.0


def writer_energy(r):
    return Writer(r).energy


@dataclass
class Branchy:
    r: float
    energy: float = field(init=False)
    extra = 1.0                         # a class attribute

    def __post_init__(self):
        if self.r > 0:
            self.extra = 2.0            # set on one way only before the call: the
        self.energy = self.kinetic()    # object so far would show the class's 1.0
        self.extra = 3.0

    def kinetic(self):
        return self.r * self.extra


def branchy_energy(r):
    return Branchy(r).energy


class Keeper:
    """A user object whose `dot` keeps its argument (its result unused by the caller)."""
    def __init__(self):
        self.kept = []

    def dot(self, v):
        self.kept.append(v)
        return 0.0


def unused_method_result(w, r):
    kept = r.dot(w * 2.0)               # r's kind shows only when it runs; kept unread
    return np.sum(np.tanh(w) ** 2)


@dataclass
class CachedInPost:
    r: float
    energy: float = field(init=False)

    def __post_init__(self):
        self.energy = self.double()     # caches `twice` on self: on an object built so far
        self.r = self.r * 3.0           # the cache would be lost (read later: stale in
                                        # Python, recomputed there)
    @functools.cached_property
    def twice(self):
        return 2.0 * self.r

    def double(self):
        return self.twice


def cached_in_post(r):
    o = CachedInPost(r)
    return o.energy + o.twice


class Box:
    def __init__(self, w):
        self.w = w

    def prod(self, axis):               # keeps self.w: its result unused by the caller
        KEPT.append(self.w)
        return 0.0


KEPT = []


def product_unused(r):
    kept = r.prod(0)                    # r's kind shows only when it runs (a helper's
    return 1.0                          # argument), constant arguments: dispatched


def array_product_unused(w):
    return product_unused(w * 2.0) * np.sum(w ** 2)


def box_product_unused(w):
    return product_unused(Box(w * 2.0)) * np.sum(w ** 2)
