"""A mutant of runtime/spread.py that tests/corpus/spread16.py and data_values.py let
through (session 29, mutG): the called value's own cotangent (`cotangents[0]`, a bound
method's object) taken from the first spread argument's. A bound method held in a
name and called with a sequence whose length the source does not fix: its object's
weight gets its own gradient."""
import numpy as np
import pytest

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
