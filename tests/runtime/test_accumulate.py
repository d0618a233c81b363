"""Adding cotangents (runtime/accumulate.py): None is zero, containers add entry by entry,
pending sums stay flat, owned buffers update in place, and a contribution is never
changed."""
import numpy as np
import pytest

from runtime.accumulate import (FlatSum, accum, accum_eager, accum_flat, accum_nested,
                                accumulate_at, accumulate_into, add_values,
                                cotangent_zeros, is_basic_index, own,
                                reused_cotangent)
from runtime.thunks import Thunk, unthunk
from transform import thunk_stats


def frozen(*values):
    out = np.array(values, dtype=float)
    out.setflags(write=False)
    return out


# ---- add_values -------------------------------------------------------------------------
def test_none_is_zero():
    a = frozen(1.0)
    assert add_values(None, a) is a and add_values(a, None) is a


def test_containers_add_entry_by_entry():
    assert add_values((1.0, None), (2.0, 3.0)) == (3.0, 3.0)
    assert add_values([1.0, 2.0], [10.0, 20.0]) == [11.0, 22.0]
    assert add_values({"a": 1.0}, {"a": 2.0, "b": 5.0}) == {"a": 3.0, "b": 5.0}


@pytest.mark.parametrize("list_first", [True, False], ids=["list+array", "array+list"])
def test_a_list_and_an_array_of_its_rows_add_row_by_row(list_first):
    rows, array = [frozen(1.0, 2.0), None], frozen(10.0, 20.0, 30.0, 40.0).reshape(2, 2)
    got = add_values(rows, array) if list_first else add_values(array, rows)
    assert isinstance(got, list) and len(got) == 2
    np.testing.assert_array_equal(got[0], [11.0, 22.0])
    np.testing.assert_array_equal(got[1], [30.0, 40.0])


def test_arrays_add_into_a_fresh_array():
    a, b = frozen(1.0, 2.0), frozen(3.0, 4.0)
    np.testing.assert_array_equal(add_values(a, b), [4.0, 6.0])


# ---- the policies' accumulations --------------------------------------------------------
@pytest.mark.parametrize("accumulate", [accum, accum_eager, accum_flat, accum_nested])
def test_every_accumulation_sums_values_and_thunks(accumulate):
    acc = None
    for part in [frozen(1.0, 2.0), None, Thunk(lambda: frozen(10.0, 20.0)), frozen(0.5, 0.5)]:
        acc = accumulate(acc, part)
    np.testing.assert_array_equal(unthunk(acc), [11.5, 22.5])
    assert accumulate(None, None) is None


def test_accum_adds_values_now_and_defers_thunks():
    assert accum(1.0, 2.0) == 3.0
    assert isinstance(accum(1.0, Thunk(lambda: 2.0)), FlatSum)


def test_flat_sums_do_not_nest_and_never_change_their_parts():
    parts = [frozen(float(k), 1.0) for k in range(50)]
    acc = None
    for part in parts:
        acc = accum_flat(acc, Thunk(lambda part=part: part))
    with thunk_stats() as stats:
        total = unthunk(acc)
    np.testing.assert_array_equal(total, [sum(range(50)), 50.0])
    assert stats.max_depth <= 2
    assert [p[0] for p in parts] == list(range(50))


def test_a_flat_sum_keeps_its_first_part_unchanged():
    first = np.array([1.0, 1.0])
    total = unthunk(accum_flat(accum_flat(None, first), np.array([2.0, 2.0])))
    np.testing.assert_array_equal(total, [3.0, 3.0])
    np.testing.assert_array_equal(first, [1.0, 1.0])
    assert total is not first


def test_accum_eager_materialises():
    got = accum_eager(Thunk(lambda: 1.0), Thunk(lambda: 2.0))
    assert got == 3.0 and not isinstance(got, Thunk)


def test_accum_nested_wraps_the_previous_sum():
    acc = None
    for _ in range(5):
        acc = accum_nested(acc, Thunk(lambda: 1.0))
    with thunk_stats() as stats:
        assert unthunk(acc) == 5.0
    assert stats.max_depth >= 5


# ---- owned buffers ------------------------------------------------------------------------
def test_own_copies_arrays_in_containers():
    a = frozen(1.0)
    owned = own(Thunk(lambda: {"k": (a, 2.0)}))
    assert owned["k"][0] is not a and owned["k"][0].flags.writeable
    assert owned["k"] == [owned["k"][0], 2.0] and own(None) is None


def test_accumulate_into_updates_the_buffer_in_place():
    buffer = own(frozen(1.0, 2.0))
    contribution = frozen(3.0, 4.0)
    out = accumulate_into(buffer, contribution)
    assert out is buffer
    np.testing.assert_array_equal(out, [4.0, 6.0])
    np.testing.assert_array_equal(contribution, [3.0, 4.0])


def test_accumulate_into_a_pending_contribution_adds_in_place():
    buffer = own(frozen(1.0, 2.0))
    out = accumulate_into(buffer, Thunk(lambda: frozen(3.0, 4.0)))
    assert out is buffer
    np.testing.assert_array_equal(out, [4.0, 6.0])


def test_accumulate_into_a_smaller_buffer_gives_a_fresh_sum():
    out = accumulate_into(own(frozen(1.0, 2.0, 3.0)), np.ones((2, 3)))
    np.testing.assert_array_equal(out, [[2.0, 3.0, 4.0]] * 2)


def test_accumulate_into_nothing_owns_a_copy():
    contribution = frozen(3.0, 4.0)
    out = accumulate_into(None, Thunk(lambda: contribution))
    assert out is not contribution and out.flags.writeable
    np.testing.assert_array_equal(out, [3.0, 4.0])
    assert accumulate_into(out, None) is out


def test_accumulate_into_lists_broadcasts_and_numbers():
    buffer = [own(frozen(1.0)), None]
    out = accumulate_into(buffer, [frozen(2.0), frozen(5.0)])
    assert out is buffer and out[0][0] == 3.0 and out[1][0] == 5.0
    np.testing.assert_array_equal(accumulate_into(own(frozen(1.0, 2.0)), 1.0), [2.0, 3.0])
    assert accumulate_into(1.5, 2.0) == 3.5
    np.testing.assert_array_equal(accumulate_into(2.0, frozen(1.0, 1.0)), [3.0, 3.0])


def test_cotangent_zeros_match_the_parameter():
    z = cotangent_zeros(np.ones((2, 3), dtype=np.float32))
    assert z.shape == (2, 3) and z.dtype == np.float32 and not z.any()
    assert cotangent_zeros(np.ones(2, dtype=int)).dtype == np.float64
    assert cotangent_zeros(np.float32(1.0)).dtype == np.float32
    assert cotangent_zeros(2.0) == 0.0


# ---- accumulate_at: dx for `for x in xs` and `x[i]` reads -------------------------------
def test_accumulate_at_allocates_zeros_like_the_sequence():
    out = accumulate_at(None, np.ones((3, 2), dtype=np.float32), 1, frozen(1.0, 2.0))
    assert out.dtype == np.float32
    np.testing.assert_array_equal(out, [[0, 0], [1, 2], [0, 0]])
    out = accumulate_at(out, None, 1, frozen(1.0, 1.0))
    np.testing.assert_array_equal(out[1], [2.0, 3.0])


def test_accumulate_at_repeated_positions_add_up():
    out = accumulate_at(None, np.ones(3), np.array([0, 0, 2]), frozen(1.0, 2.0, 4.0))
    np.testing.assert_array_equal(out, [3.0, 0.0, 4.0])


def test_accumulate_at_lists_tuples_dicts():
    assert accumulate_at(None, [1.0, 2.0], 1, 5.0) == [None, 5.0]
    assert accumulate_at((1.0, None), None, 0, 2.0) == [3.0, None]
    assert accumulate_at(None, {"a": 1.0}, "a", 2.0) == {"a": 2.0}
    assert accumulate_at({"a": 1.0}, None, "a", 2.0) == {"a": 3.0}
    assert accumulate_at([1.0], [1.0], 0, None) == [1.0]


@pytest.mark.parametrize("index, basic", [
    (1, True), (np.int64(1), True), (slice(0, 2), True), ((0, slice(None)), True),
    ((None, Ellipsis), True), (True, False), (np.array([0, 0]), False), ([0, 1], False),
])
def test_is_basic_index(index, basic):
    assert is_basic_index(index) is basic


# ---- reused_cotangent (session 32): an owned buffer kept where the zeros would be filled
def test_a_writable_buffer_of_the_zeros_dtype_is_kept():
    g, x = np.arange(4.0), np.ones(4)
    assert reused_cotangent(g, x) is g
    assert reused_cotangent(g, np.ones(4, dtype=int)) is g          # zeros are float64


@pytest.mark.parametrize("case", ["float32 x", "read-only g", "subclass g", "float32 g",
                                  "subclass x"])
def test_otherwise_a_copy_cast_as_the_zeros_would_be(case):
    g, x = np.array([1.0 + 1e-9, -2.0, 3.5]), np.ones(3)
    if case == "float32 x":
        x = x.astype(np.float32)
    elif case == "read-only g":
        g.flags.writeable = False
    elif case == "subclass g":
        g = g.view(type("Sub", (np.ndarray,), {}))
    elif case == "float32 g":
        g = g.astype(np.float32)
    else:
        x = x.view(type("Sub", (np.ndarray,), {}))
    out = reused_cotangent(g, x)
    assert out is not g and type(out) is np.ndarray and out.flags.writeable
    assert out.dtype == cotangent_zeros(x).dtype
    np.testing.assert_array_equal(out, np.asarray(g).astype(out.dtype))


def test_a_parameter_that_is_no_array_fails_as_the_writes_would():
    with pytest.raises(TypeError):
        reused_cotangent(np.ones(2), [1.0, 2.0])
