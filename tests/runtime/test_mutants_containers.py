"""Behaviour the mutation run (tools/mutate.py) found unpinned in runtime/containers.py:
each test kills a mutant that every other test let through."""
import numpy as np
import pytest

from runtime.containers import product_or_repeat
from tests.gradcheck import POLICIES, check_grad


def _write_twice(x, v):
    y = x * 1.0
    y[[0, 0, 1]] = v                 # NumPy keeps the last write: y[0] == v[1]
    return np.sum(y * np.array([3.0, 5.0]))


@pytest.mark.parametrize("policy", POLICIES)
def test_a_position_written_twice_gives_the_last_write_the_cotangent(policy):
    """v[0] is overwritten, so its derivative is 0 and v[1]'s is the weight of y[0]
    (an index that is not a palindrome, so first and last writes differ)."""
    check_grad(_write_twice, (np.array([1.0, 2.0]), np.array([0.5, 0.7, 0.9])),
               policy=policy)


def test_product_or_repeat_multiplies_numbers_and_repeats_sequences():
    assert product_or_repeat(2.5, 4.0) == 10.0
    assert product_or_repeat([1.0, 2.0], 2) == [1.0, 2.0, 1.0, 2.0]
    assert product_or_repeat(2, (3.0,)) == (3.0, 3.0)
    np.testing.assert_array_equal(product_or_repeat(np.arange(3.0), 2.0), [0.0, 2.0, 4.0])
