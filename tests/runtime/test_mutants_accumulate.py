"""Behaviour the mutation run (tools/mutate.py) found unpinned in runtime/accumulate.py:
each test kills a mutant that every other test let through."""
import collections

import numpy as np

from runtime.accumulate import accum_flat, accumulate_at
from runtime.thunks import Thunk, unthunk

Box = collections.namedtuple("Box", "shape size")      # a tuple with a `shape` field


def test_accumulate_at_a_tuple_with_a_shape_field_is_a_sequence():
    """A namedtuple whose field is called `shape` is still a tuple: its cotangent buffer
    is a list by position, not an array allocated from the field's value."""
    buffer = accumulate_at(None, Box(1.5, 2.0), 1, 3.0)
    assert buffer == [None, 3.0]
    assert accumulate_at(buffer, Box(1.5, 2.0), 1, 0.5) == [None, 3.5]


def test_a_flat_sum_broadcasts_a_larger_later_part():
    """A pending sum whose later part is larger than the buffer summed so far: the sum
    broadcasts like `+` (a fresh array), it does not add in place into the smaller one."""
    parts = [np.ones(3), np.full(3, 2.0), np.arange(6.0).reshape(2, 3)]
    acc = None
    for part in parts:
        acc = accum_flat(acc, Thunk(lambda part=part: part))
    np.testing.assert_array_equal(unthunk(acc), 3.0 + np.arange(6.0).reshape(2, 3))
