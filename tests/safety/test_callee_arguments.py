"""A helper is compiled for the arguments that carry a derivative at its call site:
an integer passed to it (a shape, a count) is not taken for a differentiated value,
so reaching np.arange or a reshape is fine; a differentiated one is still refused."""
import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_grad
from transform import TransformError, grad


def rows(x, n):
    return np.sum(x.reshape(n, -1) ** 2)


def ramp(x, n):
    return np.sum(x * np.arange(n))


def both(x):
    return rows(x, 2) + ramp(x, 4)


def ramp_from(x, start):
    return np.sum(np.arange(start, 4.0) * x[:2])


def float_start(x, s):
    return ramp_from(x, s)


@pytest.mark.parametrize("policy", POLICIES)
def test_integer_arguments_of_helpers(policy):
    check_grad(both, (np.array([0.5, -1.0, 2.0, 0.3]),), policy=policy)


def test_differentiated_argument_of_helper_still_refused():
    with pytest.raises(TransformError, match="np.arange"):
        grad(float_start, wrt=(0, 1))(np.array([0.5, -1.0, 2.0, 0.3]), 2.0)
