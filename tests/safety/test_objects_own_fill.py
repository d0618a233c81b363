"""`c.fill(v)` where `c` is a user object with its own `fill` method is that method, never
ndarray.fill: before session 34 the object's method ran unfollowed (its result unused),
a silent wrong gradient. Now an object the source shows gets the ordinary method-call
treatment (followed, or refused where a value being differentiated may be kept), and an
array the source shows is written `a[...] = v`."""
import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad
from transform import grad


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


def made_elsewhere(kind, w):
    return np.empty(3) if kind == "array" else Canvas(w) if kind == "canvas" else Counter()


def helpers_array_filled(w):
    a = made_elsewhere("array", w)       # the source does not show `a` is an array
    a.fill(w[0] * w[1])
    return np.sum(a * w)


def helpers_canvas_filled(w):
    c = made_elsewhere("canvas", w)
    c.fill(w[0])
    return c.v * np.sum(c.w)


def helpers_counter_filled_with_a_constant(w):
    c = made_elsewhere("counter", 1.0)   # (made from w, c itself would be refused)
    c.fill(3.0)                          # its own method: c.n = 3.0
    return np.sum(w ** 2) * c.n


W = np.array([0.3, -1.2, 2.0])


def test_an_objects_fill_keeping_a_differentiated_value_is_refused_not_ignored():
    # Canvas.fill sets self.v and returns self; called in a statement of its own on an
    # object the function made, it is followed (session 39; refused before)
    assert_close(grad(canvas_filled, wrt=0)(W), numerical_grad(canvas_filled, (W,), 0))
    # an argument: the source does not show what it is (an ndarray subclass is filled),
    # so the object's own `fill` is refused when it runs, at the user's line
    with pytest.raises(TypeError, match=r"test_objects_own_fill.py:\d+:\d+: .*own `fill`"):
        grad(argument_filled, wrt=0)(W, Canvas(W))      # was [0, 0.9]: -3.6 lost


def test_what_a_helper_returns_is_decided_when_the_code_runs():
    # an array gets `a[...] = v` (refused at compile time earlier in session 34)
    assert_close(grad(helpers_array_filled, wrt=0)(W),
                 numerical_grad(helpers_array_filled, (W,), 0))
    with pytest.raises(TypeError, match=r"test_objects_own_fill.py:\d+:\d+: .*Canvas .*own `fill`"):
        grad(helpers_canvas_filled, wrt=0)(W)


@pytest.mark.parametrize("fn", [counter_filled, counter_filled_with_a_constant, array_filled,
                                helpers_counter_filled_with_a_constant])
def test_gradients_match_differences(fn):
    assert_close(grad(fn, wrt=0)(W), numerical_grad(fn, (W,), 0))
