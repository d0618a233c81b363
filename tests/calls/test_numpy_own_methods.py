"""Session 34 (carried): `np.sum(obj)` (np.prod, np.max, np.min, np.mean, np.std, np.var)
of a user object with its own method runs that method, as NumPy does, with NumPy's
keywords (`obj.sum(axis=None, out=None)`), differentiated through it
(transform/lowering/numpy_methods.py): an object made in the function, a constructor
call, a global object (not yet an argument: its signature does not tell an object from a
complex number or a dict). Before, the forward ran the method
unfollowed and the backward sweep failed on the object's cotangent."""
import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad
from tests.gradcheck import check_grad
from transform import grad


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



# an argument: the signature does not show what it is (an object, a complex number, a
# dict), so np.sum(b) stays np.sum's rule; NumPy calls b.sum() when it runs. Where b is
# not differentiated that is right; where it is, the rule cannot follow the method, and
# a guard refuses it at the user's line when it runs (before: a TypeError from the
# backward sweep naming no line of the user's). b.sum() itself is followed.
def an_argument(w, b):
    return np.sum(b) * np.sum(w)


def an_arguments_mean(b):
    return np.mean(b) * 3.0


def its_method_called(w, b):
    return b.sum() * np.sum(w)


def total(b):
    return np.max(b)


def via_a_helper(w):
    return total(Bag(w)) * w[0]


def test_an_argument_given_an_object():
    b = Bag(W + 1.0)
    assert_close(grad(an_argument, wrt=0)(W, b), numerical_grad(an_argument, (W, b), 0))
    at_line = r"test_numpy_own_methods.py:\d+:\d+: np\.%s\(\) of a Bag argument being differentiated"
    with pytest.raises(TypeError, match=at_line % "sum"):
        grad(an_argument, wrt=1)(W, b)
    with pytest.raises(TypeError, match=at_line % "mean"):
        grad(an_arguments_mean)(b)
    got = grad(its_method_called, wrt=1)(W, b)["w"]
    assert_close(got, numerical_grad(lambda v: its_method_called(W, Bag(v)), (W + 1.0,), 0))


def test_a_helpers_parameter_given_an_object():
    with pytest.raises(TypeError, match=r"test_numpy_own_methods.py:\d+:\d+: np\.max\(\)"):
        grad(via_a_helper)(W)
