"""Container and object cotangents (runtime/containers.py) as units: parts, element
writes (the last write to a position wins), unpacked parts packed back, repetitions."""
import numpy as np
import pytest

from runtime.containers import (getattr_vjp, getitem_vjp, is_ndarray, list_cotangent,
                                not_shared_array, pack_cotangent, part, pop_last,
                                repeat_sequence, setitem_vjp, sum_repeats, write_item)
from runtime.thunks import Thunk
from tests.fd import assert_close


def test_part_reads_an_entry_or_zero():
    assert part(Thunk(lambda: {"a": 1.0}), "a") == 1.0
    assert part({"a": 1.0}, "b") is None and part(None, 0) is None
    assert part((1.0, 2.0), 1) == 2.0


def test_list_cotangent_splits_rows_of_an_array():
    g = np.arange(6.0).reshape(3, 2)
    got = list_cotangent(g, [np.ones(2)] * 3)
    assert isinstance(got, list) and len(got) == 3
    assert_close(got[2], [4.0, 5.0])
    assert isinstance(list_cotangent(g, (1.0, 2.0, 3.0)), tuple)
    assert list_cotangent(g, [1.0, 2.0]) is g
    assert list_cotangent([1.0], [1.0]) == [1.0]


def test_getitem_vjp_dicts_and_arrays():
    assert getitem_vjp(2.0, {"a": 1.0, "b": 2.0}, "b") == {"b": 2.0}
    assert_close(getitem_vjp(2.0, np.ones(3), 2), [0.0, 0.0, 2.0])


@pytest.mark.parametrize("owned", [True, False])
def test_setitem_vjp_on_arrays(owned):
    dx = np.array([1.0, 2.0, 3.0])
    piece, rest = setitem_vjp(dx, 1, owned)
    assert piece == 2.0 and (rest is dx) == owned
    assert_close(rest, [1.0, 0.0, 3.0])
    if not owned:
        assert_close(dx, [1.0, 2.0, 3.0])
    piece[()] = 9.0                       # the part is a copy: dx keeps its zero
    assert rest[1] == 0.0


def test_setitem_vjp_repeated_positions_keep_the_last_write():
    piece, rest = setitem_vjp(np.array([1.0, 2.0, 3.0]), np.array([0, 2, 0]), False)
    assert_close(piece, [0.0, 3.0, 1.0])
    assert_close(rest, [0.0, 2.0, 0.0])
    piece, _ = setitem_vjp(np.array([1.0, 2.0, 3.0]), np.array([0, 2]), False)
    assert_close(piece, [1.0, 3.0])


@pytest.mark.parametrize("owned", [True, False])
def test_setitem_vjp_on_lists_tuples_and_dicts(owned):
    dx = [1.0, 2.0]
    piece, rest = setitem_vjp(dx, 0, owned)
    assert piece == 1.0 and rest == [None, 2.0] and (rest is dx) == owned
    piece, rest = setitem_vjp((1.0, 2.0), 1, owned)
    assert piece == 2.0 and rest == [1.0, None]
    d = {"a": 1.0, "b": 2.0}
    piece, rest = setitem_vjp(d, "a", owned)
    assert piece == 1.0 and rest == {"b": 2.0} and (rest is d) == owned
    assert setitem_vjp({"b": 2.0}, "a", owned)[0] is None


def test_write_item_copies():
    x = np.zeros(3)
    y = write_item(x, 1, 5.0)
    assert_close(y, [0.0, 5.0, 0.0])
    assert_close(x, [0.0, 0.0, 0.0])


def test_pop_last_takes_the_tail_in_order():
    cots = [1.0, 2.0, 3.0, 4.0]
    assert pop_last(cots, [0, 0]) == [3.0, 4.0] and cots == [1.0, 2.0]
    assert pop_last(cots, (0,)) == (2.0,) and cots == [1.0]


def test_pack_cotangent_rebuilds_what_was_unpacked():
    seq = [(1.0, np.ones(2)), (2.0, np.ones(2))]
    got = pack_cotangent(seq, 1, (5.0, Thunk(lambda: np.array([1.0, 2.0]))))
    assert isinstance(got, tuple) and got[0] == 5.0
    assert_close(got[1], [1.0, 2.0])
    rows = np.ones((2, 2, 3))
    packed = pack_cotangent(rows, 0, (np.array([1.0, 2.0, 3.0]), None))
    assert_close(packed, [[1.0, 2.0, 3.0], [0.0, 0.0, 0.0]])
    assert pack_cotangent(seq, 0, None) is None


def test_not_shared_array_refuses_arrays_lists_and_dicts():
    for value in (np.ones(2), [1.0], {"a": 1.0}):
        with pytest.raises(TypeError, match="line 3"):
            not_shared_array(value, "line 3")
    not_shared_array(1.5, "line 3")
    not_shared_array((1.0,), "line 3")


def test_is_ndarray():
    assert is_ndarray(np.ones(1)) and not is_ndarray([1.0])


def test_repetitions_sum_back_entry_by_entry():
    assert repeat_sequence([1, 2], 2) == [1, 2, 1, 2]
    assert sum_repeats([1.0, None, 3.0, 4.0], [0, 0]) == [4.0, 4.0]
    assert sum_repeats(Thunk(lambda: (1.0, 2.0, 3.0)), (0, 0, 0)) == (1.0, 2.0, 3.0)
    assert sum_repeats(None, [0]) is None
    assert sum_repeats([None, Thunk(lambda: 2.0)], [0]) == [2.0]


def test_getattr_vjp():
    g = np.arange(6.0).reshape(2, 3)
    assert getattr_vjp(g, object(), "w") == {"w": g}
    assert_close(getattr_vjp(g, g, "real"), g)
    assert getattr_vjp(g, g, "imag") is None
    assert_close(getattr_vjp(g, g, "T"), g.T)
    assert_close(getattr_vjp(np.ones((4, 2, 3)), np.ones((4, 3, 2)), "mT"),
                 np.ones((4, 3, 2)))
    with pytest.raises(TypeError, match="flat"):
        getattr_vjp(g, g, "flat")
