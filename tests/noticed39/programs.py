"""Programs for session 39's noticed items (test_*.py check them against tests/fd.py)."""
import functools
from dataclasses import dataclass

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
