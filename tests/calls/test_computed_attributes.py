"""Reading a property of a differentiated object runs its getter again in the backward
sweep (runtime/containers.py computed_attribute_vjp): a getter that gives another value
the second time is refused, never differentiated as if it gave the first."""
import numpy as np
import pytest

from transform import grad

DRAWS = np.random.default_rng(0)


class Noisy:
    def __init__(self, w):
        self.w = w

    @property
    def jitter(self):
        return self.w * DRAWS.standard_normal(self.w.shape)

    @property
    def doubled(self):
        return self.w * 2.0


def jitter_sum(n):
    return np.sum(n.jitter)


def doubled_sum(n):
    return np.sum(n.doubled ** 2)


def test_a_getter_giving_another_value_is_refused():
    with pytest.raises(TypeError, match="another value when run again"):
        grad(jitter_sum)(Noisy(np.ones(3)))


def test_a_plain_getter_is_differentiated_through():
    g = grad(doubled_sum)(Noisy(np.array([1.0, -2.0])))
    assert set(g) == {"w"}                    # never {"doubled": ...}
    np.testing.assert_allclose(g["w"], 8.0 * np.array([1.0, -2.0]))


class Shifting:
    def __init__(self, w):
        self.w = w

    @property
    def moved(self):                  # a new object each time, and another value
        return Shifting(self.w + DRAWS.standard_normal(self.w.shape))

    @property
    def flipped(self):                # a new object each time, the same value
        return Shifting(self.w[::-1] * 1.0)


def test_a_getter_giving_a_new_object_of_other_values_is_refused():
    with pytest.raises(TypeError, match="another value when run again"):
        grad(lambda n: np.sum(n.moved.w ** 2))(Shifting(np.ones(3)))


def test_a_getter_giving_a_new_equal_object_is_differentiated_through():
    w = np.array([1.0, -2.0, 0.5])
    g = grad(lambda n: np.sum(n.flipped.w * np.arange(3.0)))(Shifting(w))
    np.testing.assert_allclose(g["w"], np.arange(3.0)[::-1])
