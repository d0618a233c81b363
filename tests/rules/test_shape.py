"""Shape changes, joins, splits, gathers and subscripts against central differences."""
import operator

import numpy as np
import pytest

import runtime
from runtime.rules.constructors import astype
from runtime.rules.shape import flatten
from tests.rules.checks import (available, case, check_float32, check_rule, needs, newer,
                               rand, random_like)

A, B = rand(2, 3), rand(2, 3, 4, seed=1)
V = rand(5, seed=2)
F = np.asfortranarray(A)
DISTINCT = np.array([[0.3, -1.2, 0.8, 0.1], [1.5, 0.2, -0.7, -0.1], [0.6, 0.9, -0.4, 1.1]])

SHAPE = [
    case(np.reshape, A, (3, 2)), case(np.reshape, B, (4, -1)), case(np.reshape, A, 6),
    case(np.reshape, B, (6, 4), order="F"), needs("2.1", case(np.reshape, A, shape=(1, 6)), "no shape="),
    case(np.ravel, B), case(np.ravel, A, "F"), case(np.ravel, F, order="K"), case(flatten, B),
    case(flatten, A, "F"),
    case(np.transpose, B), case(np.transpose, B, (1, 2, 0)), case(newer("permute_dims"), B, (2, 0, 1)),
    case(np.swapaxes, B, 0, 2), case(np.moveaxis, B, 0, -1), case(np.moveaxis, B, [0, 1], [2, 0]),
    case(np.expand_dims, A, 1), case(np.expand_dims, A, (0, 3)), case(np.squeeze, rand(1, 3, 1)),
    case(np.squeeze, rand(1, 3, 1), axis=2),
    case(np.broadcast_to, rand(3), (2, 3)), case(np.broadcast_to, rand(2, 1), (4, 2, 3)),
    case(np.broadcast_to, 1.5, (2, 2)),
    case(np.atleast_1d, 2.5), case(np.atleast_1d, A), case(np.atleast_2d, V), case(np.atleast_3d, A),
    case(np.atleast_3d, V),
    case(np.concatenate, [A, rand(1, 3)]), case(np.concatenate, (A, rand(2, 2)), axis=1),
    case(np.concatenate, [A, V], axis=None), case(newer("concat"), [V, V + 1]),
    case(np.stack, [A, A + 1]), case(np.stack, (V, V * 2, V - 1), axis=1),
    case(np.stack, [A, A + 1], axis=-1), case(np.stack, [1.5, 2.5], id="stack-floats"),
    case(np.hstack, [V, rand(2)]), case(np.hstack, (A, rand(2, 1))), case(np.hstack, [2.0, V]),
    case(np.vstack, [A, rand(3)]), case(np.vstack, (V, V)), case(np.dstack, [A, rand(2, 3, 2)]),
    case(np.dstack, [V, V]), case(np.column_stack, [rand(2), A]), case(np.column_stack, (V, V)),
    case(np.append, V, A), case(np.append, A, rand(1, 3), axis=0),
    case(np.tile, A, 2), case(np.tile, A, (2, 1, 3)), case(np.tile, B, (2, 1)),
    case(np.repeat, A, 2), case(np.repeat, A, 3, axis=1), case(np.repeat, A, [0, 2], axis=0),
    case(np.repeat, V, np.array([1, 0, 3, 1, 0])), case(np.repeat, 1.5, 3),
    case(np.flip, B), case(np.flip, B, 1), case(np.flip, B, axis=(0, 2)), case(np.fliplr, A),
    case(np.flipud, A), case(np.roll, V, 2), case(np.roll, A, -1, axis=1), case(np.roll, A, 4),
    case(np.roll, B, (1, -2), axis=(0, 2)), case(np.rot90, A), case(np.rot90, B, 3, (2, 0)),
    case(np.rot90, A, k=-2),
    case(np.pad, A, 1), case(np.pad, A, ((1, 0), (2, 3)), constant_values=0.5),
    case(np.pad, V, (2, 3), mode="edge"), case(np.pad, A, 2, mode="reflect"),
    case(np.pad, A, ((1, 2), (3, 1)), mode="symmetric"), case(np.pad, V, 7, mode="wrap"),
    case(np.diff, V), case(np.diff, A, axis=0), case(np.diff, B, n=2), case(np.diff, V, prepend=0.5),
    case(np.diff, A, append=rand(2, 2), axis=1), case(np.diff, V, prepend=A[0], append=1.0),
    case(np.take, V, [0, 3, 3, -1]), case(np.take, A, np.array([[0, 1], [1, 1]]), axis=0),
    case(np.take, A, 5), case(np.take, B, [0, 2, 2], axis=-1), case(np.take, V, [7, -8], mode="wrap"),
    case(np.take, V, [9, -3], mode="clip"),
    case(np.take_along_axis, DISTINCT, np.argsort(DISTINCT, axis=1), axis=1),
    case(np.take_along_axis, DISTINCT, np.array([[0, 0, 2, 1]]), axis=0),
    case(np.take_along_axis, V, np.array([4, 4, 0]), axis=0),
    case(np.take_along_axis, DISTINCT, np.array([3, 3, 11]), axis=None),
    case(np.sort, DISTINCT), case(np.sort, DISTINCT, axis=0), case(np.sort, DISTINCT, axis=None),
    case(np.partition, DISTINCT, 2), case(np.partition, DISTINCT, (0, 2), axis=0),
    case(np.array, [A, A + 1]), case(np.array, [[1.5, 2.5], [V[0], V[1]]]), case(np.array, A),
    case(np.array, (V, V), dtype=np.float64), case(np.array, V, ndmin=3),
    case(np.asarray, [1.0, V[2]]), case(np.asarray, A), case(np.asanyarray, A),
    case(np.ascontiguousarray, F), case(np.asfortranarray, A), case(np.copy, B),
    case(newer("astype"), A, np.float64), case(astype, A, np.float64), case(astype, A, "float64"),
]


def test_splits_get_a_joined_cotangent():
    for fn, args in available([(np.split, [V.reshape(5, 1).repeat(2, 1), [1, 3]]), (np.split, [A, 3, 1]),
                     (np.array_split, [V, 3]), (np.hsplit, [A, 3]), (np.hsplit, [V[:4], 2]),
                     (np.vsplit, [A, 2]), (np.dsplit, [B, [1]]), (newer("unstack"), [B])]):
        out = fn(*args)
        G = list(random_like(tuple(out)))
        G[0] = None          # a part with no cotangent is zero
        check_rule(fn, args, G=tuple(G))


@pytest.mark.parametrize("fn, args, kwargs", SHAPE)
def test_matches_finite_differences(fn, args, kwargs):
    check_rule(fn, args, kwargs)


@pytest.mark.parametrize("fn, args, kwargs", SHAPE)
def test_float32_stays_float32(fn, args, kwargs):
    check_float32(fn, args, kwargs)


def test_sequence_cotangent_mirrors_the_container():
    out, pb = runtime.lookup(np.concatenate).rrule((A, A), axis=0)
    assert isinstance(runtime.unthunk(pb(np.ones((4, 3)))[0]), tuple)
    out, pb = runtime.lookup(np.array).rrule([[1.0, 2.0], [3.0, 4.0]])
    cot = runtime.unthunk(pb(np.arange(4.0).reshape(2, 2))[0])
    assert isinstance(cot, list) and isinstance(cot[1], list) and cot[1][0] == 2.0


def test_sort_with_ties_routes_each_cotangent_once():
    x = np.array([2.0, -1.0, 2.0, 0.5])   # sort is not differentiable at the tie
    out, pb = runtime.lookup(np.sort).rrule(x)
    cot = runtime.unthunk(pb(np.array([10.0, 20.0, 30.0, 40.0]))[0])
    assert cot[1] == 10.0 and cot[3] == 20.0 and sorted([cot[0], cot[2]]) == [30.0, 40.0]


def test_astype_to_integer_has_no_cotangent():
    for fn in available([astype, newer("astype")]):
        out, pb = runtime.lookup(fn).rrule(A, np.int32)
        assert runtime.unthunk(pb(np.ones((2, 3)))[0]) is None


def test_astype_casts_the_cotangent_back():
    out, pb = runtime.lookup(astype).rrule(A.astype(np.float32), np.float64)
    assert runtime.unthunk(pb(np.ones((2, 3)))[0]).dtype == np.float32


def test_pad_modes_without_a_rule_are_refused():
    out, pb = runtime.lookup(np.pad).rrule(V, 2, mode="mean")
    with pytest.raises(NotImplementedError):
        runtime.unthunk(pb(np.ones(9))[0])


# Subscripts: operator.getitem's rule (index_vjp) with every kind of index
INDICES = [
    ("int", A, 1), ("negative", A, -1), ("slice", B, slice(1, None)),
    ("tuple", B, (0, slice(None, None, 2), 1)), ("repeated", V, [0, 2, 2, 4, 0]),
    ("repeated-2d", A, ([0, 1, 1], [2, 2, 2])), ("mask", A, A > 0), ("mask-rows", A, np.array([True, False])),
    ("newaxis", A, (None, 0)), ("ellipsis", B, (Ellipsis, 1)), ("ellipsis-newaxis", B, (0, Ellipsis, None)),
    ("fancy-ellipsis", B, (Ellipsis, [0, 0, 3])), ("fancy-newaxis", A, ([1, 1], None)),
    ("fancy-slice", B, ([1, 0, 1], slice(None), [0, 0, 3])), ("int-array-2d", V, np.array([[0, 1], [1, 1]])),
    ("scalar", V, np.int64(3)), ("mask-and-slice", B, (np.array([True, True]), slice(0, 2))),
]


@pytest.mark.parametrize("label, x, index", INDICES, ids=[i[0] for i in INDICES])
def test_getitem(label, x, index):
    check_rule(operator.getitem, [x, index], argnums=[0], integers_none=False)
    check_float32(operator.getitem, [x, index], argnums=[0])


def test_getitem_of_list_and_tuple():
    check_rule(operator.getitem, [[A, V], 1], argnums=[0])
    out, pb = runtime.lookup(operator.getitem).rrule((A, V, A), slice(0, 2))
    assert runtime.unthunk(pb((A, V))[0])[2] is None


def test_shape_only_helpers_accept_tape_stand_ins():
    """The compiler may save only shape and dtype for the arguments these helpers
    read for their shape (transform/templates.py SHAPE_ONLY_ARGS)."""
    helpers = runtime.TEMPLATE_NAMESPACE
    x = B.astype(np.float32)
    stand_in = runtime.shape_only(x)
    g = np.float32(2.0)
    assert helpers["unreduce"](g, stand_in).dtype == np.float32
    assert helpers["unreduce"](1.0, stand_in).dtype == np.float32
    assert helpers["unbroadcast"](np.ones((2, 3, 4), np.float32), stand_in).dtype == np.float32
    assert helpers["index_vjp"](np.ones(4, np.float32), stand_in, (0, 1)).dtype == np.float32
    assert helpers["index_vjp"](1.0, stand_in, (0, 1, [2, 2])).dtype == np.float32
    assert helpers["reduction_size"](stand_in, (0, 2)) == 8


def test_r_and_c_subscripts_give_each_item_its_slice_of_g():
    from runtime.rules.indexing import index_trick
    a, b = rand(3), rand(2, seed=1)
    out, pb = runtime.lookup(index_trick).rrule(np.r_, (a, b))
    G = np.arange(5.0)
    trick, items = (runtime.unthunk(c) for c in pb(G))
    assert trick is None
    np.testing.assert_array_equal(items[0], G[:3])
    np.testing.assert_array_equal(items[1], G[3:])
    out, pb = runtime.lookup(index_trick).rrule(np.c_, (a, a + 1.0))
    items = runtime.unthunk(pb(np.arange(6.0).reshape(3, 2))[1])
    np.testing.assert_array_equal(items[0], [0.0, 2.0, 4.0])
    np.testing.assert_array_equal(items[1], [1.0, 3.0, 5.0])


def test_repeating_a_list_sums_the_copies_cotangents():
    from runtime import containers
    check_rule(containers.repeat_sequence, [[1.5, 2.0], 3], argnums=[0])


def test_subscripting_an_unknown_object_has_no_derivative():
    """np.s_[...], np.mgrid[...] or a user class's __getitem__: what it computes from
    the index is unknown, so it is registered as having no derivative."""
    from runtime.rules.indexing import index_object
    assert runtime.lookup(index_object).kind == "nondiff"
