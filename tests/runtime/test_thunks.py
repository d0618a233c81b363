"""Thunks (runtime/thunks.py): computed once, on first use; unthunk is the identity on
everything else; thunk_stats counts what happens inside it and restores the counters."""
import numpy as np
import pytest

from runtime.thunks import _COUNTING, _STATS, Thunk, unthunk
from transform import thunk_stats


def counting(value):
    calls = []

    def fn():
        calls.append(1)
        return value
    return Thunk(fn), calls


def test_a_thunk_is_computed_once_on_first_use():
    t, calls = counting(3.0)
    assert calls == [] and not t.forced and "pending" in repr(t)
    assert unthunk(t) == 3.0 and unthunk(t) == 3.0 and t.force() == 3.0
    assert calls == [1] and t.forced and "forced" in repr(t)


def test_a_thunk_of_a_thunk_unwraps_both():
    inner, _ = counting(np.array([1.0, 2.0]))
    outer = Thunk(lambda: inner)
    np.testing.assert_array_equal(unthunk(outer), [1.0, 2.0])
    assert inner.forced


def test_unthunk_returns_anything_else_unchanged():
    a = np.ones(2)
    assert unthunk(a) is a and unthunk(None) is None and unthunk(2.0) == 2.0


def test_a_thunk_of_none_is_forced_once():
    t, calls = counting(None)
    assert unthunk(t) is None and unthunk(t) is None and calls == [1]


def test_stats_count_created_forced_and_depth():
    with thunk_stats() as stats:
        a, _ = counting(1.0)
        b = Thunk(lambda: unthunk(a) + 1.0)
        c = Thunk(lambda: unthunk(b) + 1.0)
        Thunk(lambda: 0.0)                    # created, never forced
        assert unthunk(c) == 3.0
        unthunk(c)
    assert (stats.created, stats.forced, stats.max_depth) == (4, 3, 3)
    assert "created=4" in repr(stats)


def test_stats_nest_and_restore_the_outer_counts():
    with thunk_stats() as outer:
        unthunk(Thunk(lambda: 1.0))
        with thunk_stats() as inner:
            unthunk(Thunk(lambda: 1.0))
            unthunk(Thunk(lambda: 1.0))
        unthunk(Thunk(lambda: 1.0))
    assert (inner.created, inner.forced) == (2, 2)
    assert (outer.created, outer.forced, outer.max_depth) == (2, 2, 1)


def test_no_counting_outside_a_context():
    fresh = thunk_stats()
    assert (fresh.created, fresh.forced, fresh.max_depth) == (0, 0, 0)
    with thunk_stats() as before:
        pass
    unthunk(Thunk(lambda: 1.0))
    with thunk_stats() as after:
        pass
    assert (before.created, after.created, after.forced, after.max_depth) == (0, 0, 0, 0)
    # "costs nothing outside one": no block open anywhere, none counting in this context
    assert _STATS.active == 0 and _COUNTING.get() is None


def test_depth_counts_each_chain_from_the_outside():
    with thunk_stats() as stats:
        unthunk(Thunk(lambda: 1.0))
        inner = Thunk(lambda: 1.0)
        unthunk(Thunk(lambda: unthunk(inner)))
    assert stats.max_depth == 2


def test_an_exception_inside_the_context_propagates():
    with pytest.raises(KeyError):
        with thunk_stats():
            raise KeyError("k")
    assert _STATS.active == 0 and _COUNTING.get() is None


def test_depth_recovers_after_an_exception():
    def fails():
        raise ValueError("boom")
    with thunk_stats() as stats:
        with pytest.raises(ValueError):
            unthunk(Thunk(fails))
        unthunk(Thunk(lambda: 1.0))
    assert stats.max_depth == 1
