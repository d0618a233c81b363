"""Programs for session 38's noticed items (test_*.py check them against tests/fd.py)."""
import functools
from dataclasses import dataclass, field

import numpy as np


class Fitted:
    def __init__(self, w, s=1.5):
        self.w = np.tanh(w)
        self.s = s


class Mid(Fitted):
    def __init__(self, w):
        super(Mid, self).__init__(w * 2.0, 0.5)
        self.w = self.w * self.s + 1.0


class Skips(Mid):
    def __init__(self, w):
        super(Mid, self).__init__(w)          # Fitted's __init__, not Mid's
        self.b = self.w ** 2


def super_named_class(w):
    m = Mid(w)
    return np.sum(m.w ** 2) * m.s


def super_skipping_a_class(w):
    k = Skips(w)
    return np.sum(k.b * k.w) + k.s


@dataclass(frozen=True)
class Box:
    lo: np.ndarray
    hi: np.ndarray

    def __post_init__(self):
        if np.any(self.hi < self.lo):
            raise ValueError("an empty box")


def frozen_box(x):
    b = Box(np.sin(x) - 1.0, x + 1.0)
    return np.sum((b.hi - b.lo) * np.cos(b.lo) ** 2)


def frozen_box_inverted(x):
    b = Box(x + 1.0, x - 1.0)
    return np.sum(b.hi - b.lo)


@dataclass(frozen=True)
class Scaled:
    w: np.ndarray
    k: float = 2.0

    def __post_init__(self):
        self.w = self.w * self.k         # FrozenInstanceError in Python


def frozen_writes(x):
    return np.sum(Scaled(x).w)


@dataclass
class Orbit:
    r: float
    v: float
    energy: float = field(init=False)

    def __post_init__(self):
        self.energy = 0.5 * self.v ** 2 - 1.0 / self.r


def orbit_energy(r):
    o = Orbit(r, 0.8)
    return o.energy * o.r


@dataclass
class Kinetic:
    r: float
    v: float

    def __post_init__(self):
        self.energy = self.kinetic() - 1.0 / self.r

    def kinetic(self):
        return 0.5 * self.v ** 2


def kinetic_energy(r):
    return Kinetic(r, 0.8).energy


def list_item_take_dot(w):
    xs = [w, np.sin(w) * 2.0]
    return xs[1].take([2, 0, 1]).dot(xs[0]) + np.sum(xs[0].take([0, 0, 2]) ** 3)


def dict_value_compress(w):
    d = {"a": np.exp(w), "b": w[::-1]}
    keep = np.array([True, False, True])
    return np.sum(d["a"].compress(keep) * d["b"].compress(keep, 0) ** 2)


def method_mix_vector(w):
    parts = (w ** 2, np.cos(w))
    return np.concatenate([parts[0].take([1, 2]), parts[1].compress(w > 0.0), [parts[0].dot(w)]])


def direct_compress(w):
    return np.sum(np.tanh(w).compress(w > 0.0) ** 2)


class Cached:
    def __init__(self, w):
        self.w = w

    @functools.cached_property
    def norm(self):
        return np.sqrt(np.sum(self.w ** 2))

    def energy(self, x):
        return np.sum(self.w * x) / self.norm


def cached_built_inside(w, x):
    m = Cached(np.sin(w))
    return m.norm * np.sum(x) + m.energy(x) * m.norm      # later reads: the cached value


@dataclass
class CachedRecord:
    w: np.ndarray

    @functools.cached_property
    def norm(self):
        return np.sqrt(np.sum(self.w ** 2))

    def energy(self, x):
        return np.sum(self.w * x) / self.norm


def cached_record_argument(m, x):
    return m.energy(x) + m.norm ** 2


KEPT = []


def keep(v):
    KEPT.append(v)
    return 1.0


def kept_list_item(w):
    blocks = [w.reshape(2, 3), np.exp(w).reshape(3, 2)]
    unused = keep(blocks[1])
    return np.sum(blocks[0] ** 2)
