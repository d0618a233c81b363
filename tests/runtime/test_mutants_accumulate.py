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


# 2026-12-02, session 30 (perf30): the first write into a fresh buffer assigns (its fast
# path); the guards that keep other values on the general path, pinned
def test_accumulate_at_a_number_into_a_fresh_slice_spreads_it():
    np.testing.assert_array_equal(accumulate_at(None, np.zeros(3), slice(0, 2), 1.5),
                                  [1.5, 1.5, 0.0])


def test_accumulate_at_a_fresh_list_buffer_keeps_entries():
    buffer = accumulate_at(None, [1.0, 2.0, 3.0], slice(0, 2), np.array([1.0, 2.0]))
    assert buffer == [1.0, 2.0, None]


def test_accumulate_at_a_complex_value_into_a_real_fresh_slice_takes_its_real_part():
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")            # no ComplexWarning from a cast
        out = accumulate_at(None, np.zeros(4), slice(1, 3), np.array([1 + 2j, 3j]))
    assert out.dtype.kind == "f"
    np.testing.assert_array_equal(out, [0.0, 1.0, 0.0, 0.0])
