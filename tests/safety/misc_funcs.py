"""Programs for test_misc_refusals.py: ndarray attributes and methods, bound methods,
a global bound to None, methods reached only at run time."""
import numpy as np

OFFSET = None


def real_squared(x):
    return np.sum(x.real * x.real)


def imag_plus(x):
    return np.sum(x.imag + x * x)


def scalar_real(s):
    return s.real * s


def matrix_transpose(x):
    return np.sum(np.tanh(x.mT @ x))


def flat_read(x):
    return x.flat[0] * 2.0                        # line 25


def base_read(x):
    v = x[1:]
    return np.sum(v.base)                         # line 30


def data_read(x):
    return np.sum(np.frombuffer(x.data) * x)      # line 34


def flags_read(x):
    return float(x.flags.writeable) * np.sum(x)   # line 38


def flat_of_a_constant(x, c):
    return np.sum(x) * c.flat[1]


def item_of_one(x):
    return x.item() * 3.0


def item_at(x):
    return x.item(1) * x.item(2) + np.sum(x)


def item_at_tuple(m):
    return m.item((0, 1)) ** 2


def tolist_sum(x):
    return sum(x.tolist())


def tolist_entries(x):
    rows = x.tolist()
    return rows[1][0] ** 2 * rows[0][1]


def unmapped_method(x):
    return np.sum(x.byteswap())   # line 67 (ndarray.compress has a rule since session 38)


def clipped_by_global(x):
    return np.sum(np.clip(x, OFFSET, 1.0) ** 2)


class Scaled:
    def __init__(self, w):
        self.w = w

    def apply(self, x):
        return self.w * x * x

    def mix(self, x, y):
        return np.sum(self.w * x * np.sin(y))


class ReadsFlat:
    def run(self, x):
        return x.flat[0] * 2.0                    # line 87


class Squares:
    def run(self, x):
        return np.sum(x * x)


def call_run(obj, x):
    return obj.run(x) * 2.0                       # line 96


class Bag:
    """A user object with its own `item` and `tolist`: not an ndarray's."""

    def __init__(self, w):
        self.w = w

    def item(self, x):
        return self.w * x ** 2

    def tolist(self, x):
        return [self.w * x, x]


def bag_item(bag, x):
    return bag.item(x) + bag.tolist(x)[0]
