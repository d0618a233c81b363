"""Programs for session 38's noticed items (test_*.py check them against tests/fd.py)."""
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
