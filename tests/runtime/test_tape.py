"""The tape helpers the backward sweep replays loops with (runtime/tape.py): each walks
its sequence last first, over exactly the steps the forward loop ran."""
import numpy as np
import pytest

from runtime.tape import (ShapeOnly, iterable, popped, reversed_enumerate, reversed_indices,
                          reversed_prefix, reversed_zip, shape_only, tape_reader)


def test_tape_reader_returns_entries_last_first_without_consuming():
    tape = [1, 2, 3]
    pop = tape_reader(tape)
    assert [pop(), pop()] == [3, 2]
    assert tape == [1, 2, 3]
    assert tape_reader(tape)() == 3          # a second pullback reads it again


def test_popped_continues_where_the_reader_stopped():
    pop = tape_reader([1, 2, 3, 4, 5])
    assert pop() == 5
    assert list(popped(pop, 2)) == [4, 3]
    assert pop() == 2
    assert list(popped(pop)) == [1]


def test_iterable_keeps_sequences_and_lists_the_rest():
    xs, arr, r = [1, 2], np.arange(3.0), range(4)
    assert iterable(arr) is arr and iterable(r) is r
    kept = iterable(xs)             # a list is copied: appends after the loop not seen
    xs.append(3)
    assert kept == [1, 2] and kept is not xs
    assert iterable("ab") == "ab" and iterable((1,)) == (1,)
    listed = iterable(k * k for k in range(3))
    assert listed == [0, 1, 4]
    assert iterable({"a": 1}.items()) == [("a", 1)]


def test_reversed_prefix():
    assert list(reversed_prefix([1, 2, 3, 4], 3)) == [3, 2, 1]
    assert list(reversed_prefix((1, 2, 3), 3)) == [3, 2, 1]
    assert list(reversed_prefix([1, 2], 0)) == []
    assert list(reversed_prefix(range(5), 2)) == [1, 0]
    np.testing.assert_array_equal(list(reversed_prefix(np.arange(6).reshape(3, 2), 2)),
                                  [[2, 3], [0, 1]])


def test_reversed_prefix_reads_a_list_in_place():
    """No copy of the loop's list (the backward sweep of a loop over n items held two
    copies of it): the items are read by position as the walk reaches them."""
    import tracemalloc
    items = [np.zeros(1) for _ in range(10_000)]
    tracemalloc.start()
    try:
        walk = reversed_prefix(items, len(items))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 8 * len(items) // 2, peak
    assert next(walk) is items[-1]


def test_reversed_prefix_of_a_list_that_lost_an_item_raises():
    items = [1, 2, 3]
    walk = reversed_prefix(items, 3)
    items.pop()
    with pytest.raises(IndexError):
        list(walk)


def test_reversed_enumerate():
    assert list(reversed_enumerate(["a", "b", "c"], 3)) == [(2, "c"), (1, "b"), (0, "a")]
    assert list(reversed_enumerate(["a", "b", "c"], 2, start=5)) == [(6, "b"), (5, "a")]
    assert list(reversed_enumerate(["a"], 0)) == []


def test_reversed_zip_walks_every_sequence_backwards_together():
    got = list(reversed_zip(3, [1, 2, 3, 4], "wxyz", (7, 8, 9)))
    assert got == [(3, "y", 9), (2, "x", 8), (1, "w", 7)]
    assert list(reversed_zip(0, [1], [2])) == []


def test_reversed_indices():
    assert list(reversed_indices(3)) == [2, 1, 0]
    assert list(reversed_indices(0)) == []


def test_shape_only_keeps_shape_and_dtype_and_is_shared():
    a = np.zeros((4, 2), dtype=np.float32)
    proxy = shape_only(a)
    assert isinstance(proxy, ShapeOnly)
    assert (proxy.shape, proxy.dtype, proxy.ndim, len(proxy)) == ((4, 2), np.float32, 2, 4)
    assert shape_only(np.ones((4, 2), dtype=np.float32)) is proxy
    assert shape_only(np.ones((4, 2))) is not proxy
    assert shape_only(np.float64(2.0)).shape == ()
    assert shape_only(2.5) == 2.5 and shape_only([a]) == [a]
