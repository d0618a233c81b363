"""Session 34 (carried): `np.sum(obj)` (np.prod, np.max, np.min, np.mean, np.std, np.var)
of a user object with its own method runs that method, as NumPy does, with NumPy's
keywords (`obj.sum(axis=None, out=None)`), differentiated through it
(transform/lowering/numpy_methods.py): an object made in the function, a constructor
call, a global object (not yet an argument: its signature does not tell an object from a
complex number or a dict). Before, the forward ran the method
unfollowed and the backward sweep failed on the object's cotangent."""
import numpy as np
import pytest

from tests.gradcheck import check_grad


class Bag:
    def __init__(self, w):
        self.w = w

    def sum(self, axis=None, dtype=None, out=None):
        return np.sum(self.w ** 3) + 1.0

    def mean(self, axis=None, dtype=None, out=None, keepdims=False):
        return np.mean(self.w) * (3.0 if keepdims else 2.0)

    def std(self, axis=None, dtype=None, out=None, ddof=0):
        return np.sqrt(np.mean(self.w ** 2) + ddof)

    def max(self, axis=None, out=None):
        return np.max(self.w) * 0.5


FIXED = Bag(np.array([1.0, 2.0]))


def made_here(w):
    b = Bag(w)
    return np.sum(b) * 2.0 + np.mean(b, keepdims=True) + np.std(b, ddof=1) + np.max(b)


def a_constructor_call(w):
    return np.sum(Bag(w)) + np.mean(Bag(w * 2.0))


def a_global(w):
    return np.sum(FIXED) * np.sum(w)


W = np.array([0.3, -1.2, 2.0])


@pytest.mark.parametrize("fn", [made_here, a_constructor_call, a_global])
def test_matches_finite_differences(fn):
    check_grad(fn, (W,))

