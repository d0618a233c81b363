"""Behaviour the mutation run (tools/mutate.py) found unpinned in runtime/rules/random.py:
each test kills a mutant the other tests let through."""
import numpy as np
import pytest
from numpy.random import shuffle as mix

from tests.gradcheck import POLICIES
from transform import TransformError, grad


def shuffled_after_use(x):
    w = np.arange(6.0)
    y = x * w                 # the backward sweep reads w as it was here
    np.random.shuffle(w)
    return np.sum(y)


def mixed_after_use(x):
    w = np.arange(6.0)
    y = x * w
    mix(w)                    # the same function under another name
    return np.sum(y)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("f", [shuffled_after_use, mixed_after_use])
def test_shuffle_writes_its_argument(f, policy):
    """np.random.shuffle is declared to write into its argument, so a value the backward
    sweep reads is not shuffled under it: the gradient is w before the shuffle, or the
    program is refused. Declared as not writing, the gradient was the shuffled w."""
    np.random.seed(1)
    try:
        gradient = grad(f, policy=policy)(np.ones(6))
    except TransformError as error:
        assert "in place" in str(error)
    else:
        np.testing.assert_array_equal(gradient, np.arange(6.0))
