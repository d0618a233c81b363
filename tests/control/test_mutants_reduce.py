"""functools.reduce in compiled code keeps Python's behaviour at the edges
(runtime/reduce_source.py, judged by mutation in session 29): an empty iterable with no
initial value is functools' TypeError, not an IndexError."""
import functools
import operator

import numpy as np
import pytest

from tests.gradcheck import POLICIES
from transform import grad


def reduce_of_nothing(x):
    parts = [x * k for k in range(int(np.sum(x > 10.0)))]   # empty for small x
    return np.sum(functools.reduce(operator.add, parts))


@pytest.mark.parametrize("policy", POLICIES)
def test_empty_iterable_without_initial_is_functools_type_error(policy):
    with pytest.raises(TypeError, match="empty iterable with no initial value"):
        reduce_of_nothing(np.ones(3))
    with pytest.raises(TypeError, match="empty iterable with no initial value"):
        grad(reduce_of_nothing, policy=policy)(np.ones(3))
