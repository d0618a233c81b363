"""Mutants of runtime/spread.py that tests/corpus/spread16.py and data_values.py let
through (session 29, mutG): the called value's own cotangent (`cotangents[0]`, a bound
method's object) taken from the first spread argument's. A bound method held in a
name and called with a sequence whose length the source does not fix: its object's
weight gets its own gradient."""
import numpy as np
import pytest

from runtime.spread import spread_pullback
from tests.gradcheck import POLICIES, check_function


class Layer:
    def __init__(self, w):
        self.w = w

    def forward(self, a, b):
        return np.tanh(self.w * a + b)


def _bound_method_spread(x):
    fwd = Layer(np.exp(x)).forward
    xs = [x * k for k in range(1, 3)]
    return np.sum(fwd(*xs))


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("shape", [(), (3,)])
def test_bound_method_called_with_a_spread_sequence(policy, shape):
    x = np.random.default_rng(29).normal(size=shape) * 0.5
    check_function(_bound_method_spread, (x,), policy=policy)


def test_a_pullback_with_the_wrong_number_of_cotangents_is_reported():
    """spread_pullback checks one cotangent for the called value plus one per spread
    argument; the message counts the arguments' cotangents it got."""
    pullback = spread_pullback(lambda g: (None, g), [1.0, 2.0])
    with pytest.raises(TypeError, match=r"^spread_call: 1 cotangents for 2 spread"):
        pullback(1.0)


# ---- 2026-12-02, session 30 (fuzz30): a callee with defaults the spread leaves unfilled ----
def _with_default(p, q, r=0.5):
    return np.tanh(p * q) + r


def _spread_leaving_a_default(x):
    xs = [x * k for k in range(1, 3)]            # two entries: r keeps its default
    return np.sum(_with_default(*xs)) + np.sum(_with_default(x, *xs[:1], r=0.25))


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("shape", [(), (3,)])
def test_spread_into_a_function_with_a_default_left_unfilled(policy, shape):
    x = np.random.default_rng(30).normal(size=shape) * 0.5
    check_function(_spread_leaving_a_default, (x,), policy=policy)


def test_the_cotangents_of_parameters_after_the_spread_ones_are_dropped():
    """One cotangent per parameter comes back (defaults and keywords too): the spread
    sequence's cotangent is made of the first len(args), in order."""
    pullback = spread_pullback(lambda g: ("fn", g, 2 * g, 3 * g), [1.0, 2.0])
    assert pullback(1.0) == (None, "fn", [1.0, 2.0])
    exact = spread_pullback(lambda g: ("fn", g, 2 * g), (1.0, 2.0))
    assert exact(1.0) == (None, "fn", (1.0, 2.0))
