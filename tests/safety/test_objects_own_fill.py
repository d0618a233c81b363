"""`c.fill(v)` where `c` is a user object with its own `fill` method is that method, never
ndarray.fill: before session 34 the object's method ran unfollowed (its result unused),
a silent wrong gradient. Now an object the source shows gets the ordinary method-call
treatment (followed, or refused where a value being differentiated may be kept), and an
array the source shows is written `a[...] = v`."""
import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad
from transform import grad
from transform.errors import TransformError


class Canvas:
    def __init__(self, w):
        self.w = w
        self.v = 0.0

    def fill(self, v):
        self.v = v * 3.0
        return self


class Counter:
    def __init__(self):
        self.n = 0.0

    def fill(self, v):
        self.n = v


def canvas_filled(w):
    c = Canvas(w)
    c.fill(w[0])
    return c.v * np.sum(c.w)


def counter_filled(w):
    c = Counter()
    c.fill(w[0] ** 2)
    return c.n * np.sum(w)


def counter_filled_with_a_constant(w):
    c = Counter()
    c.fill(3.0)
    return np.sum(w ** 2) * c.n


def array_filled(w):
    a = np.empty(3)
    a.fill(w[0])
    return np.sum(a * w)


def argument_filled(w, c):
    c.fill(w[0])
    return c.v * w[1]


W = np.array([0.3, -1.2, 2.0])


def test_an_objects_fill_keeping_a_differentiated_value_is_refused_not_ignored():
    with pytest.raises(TransformError, match=r"test_objects_own_fill.py:\d+:\d+: .*own `fill`"):
        grad(canvas_filled, wrt=0)(W)
    with pytest.raises(TransformError, match=r"test_objects_own_fill.py:\d+:\d+: .*own `fill`"):
        grad(argument_filled, wrt=0)(W, Canvas(W))      # was [0, 0.9]: -3.6 lost


@pytest.mark.parametrize("fn", [counter_filled, counter_filled_with_a_constant, array_filled])
def test_gradients_match_differences(fn):
    assert_close(grad(fn, wrt=0)(W), numerical_grad(fn, (W,), 0))
