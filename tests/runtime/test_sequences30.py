"""The run-time helpers of session 30 (py30b): zip's and reversed's cotangents
(runtime/rules/operators_helpers.py transposed_vjp, sequences_helpers.py), dict(pairs),
a list shuffled in place, `f(**params)` (runtime/spread.py keywords_pullback) and a
NumPy function of a NamedTuple (runtime/containers.py record_field); each helper on its
own, then whole programs against finite differences under every policy."""
import collections
import copy
import random

import numpy as np
import pytest

from runtime.containers import record_field
from runtime.rules.operators_helpers import transposed, transposed_vjp
from runtime.rules.sequences_helpers import (dict_pairs_vjp, in_order, in_order_vjp,
                                             reversed_items, reversed_items_vjp,
                                             shuffle_order)
from runtime.spread import keywords_pullback, spread_keywords
from tests.corpus import python30b as P
from tests.gradcheck import POLICIES, check_function, rng


# ---- zip ---------------------------------------------------------------------------------
def test_array_rows_get_array_cotangents_zero_past_the_stop():
    rows = [np.array([1.0, 2.0, 3.0]), np.array([4.0, 5.0])]
    assert transposed(rows) == ((1.0, 4.0), (2.0, 5.0))
    out = transposed_vjp(((1.0, 2.0), (3.0, None)), rows)
    assert isinstance(out, list) and len(out) == 2
    np.testing.assert_array_equal(out[0], [1.0, 3.0, 0.0])
    np.testing.assert_array_equal(out[1], [2.0, 0.0])
    assert out[0].dtype == np.float64


def test_complex_array_row_keeps_its_imaginary_part():
    rows = (np.array([1j, 2.0]), np.array([1.0, 1.0]))
    out = transposed_vjp(((1j, 2.0), (3.0, 4.0)), rows)
    assert isinstance(out, tuple)
    np.testing.assert_array_equal(out[0], [1j, 3.0])


def test_tuple_list_and_dict_rows():
    rows = [(1.0, 2.0, 3.0), [4.0, 5.0], {"a": 1.0, "b": 2.0}]
    out = transposed_vjp(((1.0, 2.0, None), (3.0, 4.0, None)), rows)
    assert out == [(1.0, 3.0, None), [2.0, 4.0], None]


# ---- reversed ----------------------------------------------------------------------------
def test_reversed_items_of_each_kind():
    assert reversed_items([1, 2, 3]) == [3, 2, 1]
    assert reversed_items((1, 2)) == (2, 1)
    assert reversed_items(range(3)) == range(2, -1, -1)
    np.testing.assert_array_equal(reversed_items(np.arange(3.0)), [2.0, 1.0, 0.0])
    assert reversed_items({"a": 1, "b": 2}) == ["b", "a"]
    assert reversed_items(collections.deque([1, 2])) == [2, 1]


def test_reversed_items_vjp():
    assert reversed_items_vjp(None, [1.0, 2.0]) is None
    assert reversed_items_vjp([1.0, None], [1.0, 2.0]) == [None, 1.0]
    np.testing.assert_array_equal(reversed_items_vjp(np.array([1.0, 2.0]), (0.0, 0.0)),
                                  [2.0, 1.0])
    assert reversed_items_vjp([None, 1.0], {"a": 1.0, "b": 2.0}) is None
    assert reversed_items_vjp([None, None], collections.deque([1.0, 2.0])) is None
    with pytest.raises(TypeError, match="reversed"):
        reversed_items_vjp([None, 1.0], collections.deque([1.0, 2.0]))


# ---- dict(pairs) -------------------------------------------------------------------------
def test_dict_of_pairs_the_last_pair_of_a_key_wins():
    pairs = [("a", 1.0), ["b", 2.0], ("a", 3.0)]
    assert dict_pairs_vjp({"a": 5.0, "b": 6.0}, pairs) == [None, [None, 6.0], (None, 5.0)]
    assert dict_pairs_vjp({"a": 5.0, "b": None}, tuple(pairs)) == \
        (None, None, (None, 5.0))
    assert dict_pairs_vjp(None, pairs) is None


def test_dict_of_a_mapping_and_of_an_iterator():
    assert dict_pairs_vjp({"a": 1.0, "c": 2.0}, {"a": 0.0, "b": 0.0}) == {"a": 1.0}
    assert dict_pairs_vjp({"c": 2.0}, {"a": 0.0}) is None
    with pytest.raises(TypeError, match="iterator"):
        dict_pairs_vjp({"a": 1.0}, iter([("a", 1.0)]))


# ---- shuffle -----------------------------------------------------------------------------
@pytest.mark.parametrize("make", [lambda: np.random.default_rng(5),
                                  lambda: np.random.RandomState(5), lambda: random.Random(5)])
def test_shuffle_order_draws_what_shuffle_draws(make):
    items = [np.full(2, k) for k in range(6)]
    shuffled = list(items)
    make().shuffle(shuffled)
    order = shuffle_order(make(), items)
    assert sorted(order) == list(range(6))
    assert [int(v[0]) for v in in_order(items, order)] == [int(v[0]) for v in shuffled]


def test_in_order_vjp():
    order = [2, 0, 1]
    assert in_order_vjp(None, [1.0, 2.0, 3.0], order) is None
    out = in_order_vjp([1.0, None, 3.0], [1.0, 2.0, 3.0], order)
    assert isinstance(out, np.ndarray)
    np.testing.assert_array_equal(out, [0.0, 3.0, 1.0])
    rows = [np.zeros(2), np.zeros(2), np.zeros(2)]
    assert in_order_vjp(["a", "b", "c"], rows, order) == ["b", "c", "a"]


# ---- f(**params) -------------------------------------------------------------------------
def test_keywords_pullback():
    assert spread_keywords(lambda a, b=1.0: a * b, [2.0], {"b": 3.0}) == 6.0
    pullback = keywords_pullback(lambda g: ("fn", g * 2.0, None, g * 3.0),
                                 ("a", "b", "c"), [1.0], {"c": 0.0, "b": 0.0})
    assert pullback(1.0) == (None, "fn", [2.0], {"c": 3.0})
    nothing = keywords_pullback(lambda g: (None, None, None), ("a", "b"), [], {"b": 0.0})
    assert nothing(1.0) == (None, None, None, None)
    short = keywords_pullback(lambda g: (None, g), ("a", "b"), [], {"b": 0.0})
    with pytest.raises(TypeError, match="1 cotangents for 2 parameters"):
        short(1.0)


# ---- a NamedTuple given whole to NumPy ---------------------------------------------------
def test_record_field_of_rows():
    g = np.arange(6.0).reshape(2, 3)
    np.testing.assert_array_equal(record_field(g, "b", 1, ("w", "b")), [3.0, 4.0, 5.0])
    with pytest.raises(TypeError, match="cotangent is a number or an array"):
        record_field(g, "b", 1, ("w", "b", "c"))
    with pytest.raises(TypeError, match="cotangent is a number or an array"):
        record_field(np.float64(1.0), "b", 1, ("w", "b"))
    with pytest.raises(TypeError, match="cotangent is a number or an array"):
        record_field(g, "b", None, ("w", "b"))


# ---- whole programs ----------------------------------------------------------------------
PROGRAMS = [
    (P.zip_star_of_array_rows, [(2, 3)]), (P.dict_of_zip_repeated_key, [(3,)]),
    (P.dict_of_zip_over_matrix_rows, [(3, 2)]), (P.list_of_zip_of_matrix_rows, [(2, 3), (2, 3)]),
    (P.list_of_reversed_list, [()]), (P.sum_of_reversed_array, [(3,)]),
    (P.zip_with_a_reversed_row, [(3,)]), (P.store_into_deep_copy, [(3,)]),
    (P.store_into_shallow_copy, [()]), (P.shuffle_list_with_generator, [(3,)]),
    (P.shuffle_list_every_epoch, [()]), (P.numpy_sum_of_a_namedtuple, [(3,)]),
    (P.nested_def_keyword_only_required_closure, [(3,)]),
]


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("f, shapes", PROGRAMS, ids=lambda v: getattr(v, "__name__", ""))
def test_program_against_finite_differences(f, shapes, policy):
    r = rng("sequences30", f.__name__)
    args = [float(r.standard_normal()) if s == () else r.standard_normal(s) for s in shapes]
    check_function(f, args, None, policy)


@pytest.mark.parametrize("policy", POLICIES)
def test_keywords_from_a_dict_argument(policy):
    r = rng("sequences30", "keywords")
    args = [r.standard_normal(3), {"w": r.standard_normal(3), "b": 0.3}]
    check_function(P.keyword_only_parameters_from_a_dict_in_a_loop, args, None, policy)
    check_function(P.method_keywords_from_a_dict, [args[0], {"w": args[1]["w"]}], None,
                   policy)


# ---- complex values through the structural rules (complex_ok: they are linear) ----------
def _complex_reversed(x):
    z = x * (1.0 + 2.0j)
    ys = list(reversed([z, z * z]))
    return np.sum(np.abs(ys[0] + 3.0 * ys[1]) ** 2)


def _complex_shuffled(x):
    z = x * (1.0 + 2.0j)
    zs = [z, z * z, np.sin(x) + 0j]
    np.random.default_rng(2).shuffle(zs)
    return np.sum(np.abs(zs[0] + 2.0 * zs[1]) ** 2)


def _complex_dict_of_zip(x):
    z = x * (1.0 - 1.0j)
    d = dict(zip(["a", "b"], [z, z * z]))
    return np.sum(np.abs(d["a"] * 2.0 + d["b"]) ** 2)


def _complex_copies(x):
    z = x * (0.5 + 1.0j)
    d = {"a": z, "b": [z * z]}
    e = copy.copy(d)
    f = copy.deepcopy(d)
    return np.sum(np.abs(e["a"] + 2.0 * f["b"][0]) ** 2)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("f", [_complex_reversed, _complex_shuffled, _complex_dict_of_zip,
                               _complex_copies], ids=lambda f: f.__name__)
def test_complex_values_pass_through(f, policy):
    check_function(f, [rng("sequences30", f.__name__).standard_normal(3)], None, policy)


def test_generated_code_uses_the_rules_not_the_helpers_source():
    """reversed_items and in_order are plain Python: without their rules the compiler
    would differentiate their source instead (and a deque's reversed items would meet
    reversed() again); the backward sweep calls the rules' templates."""
    from transform import adjoint_source
    assert "reversed_items_vjp(" in adjoint_source(P.list_of_reversed_list)
    assert "in_order_vjp(" in adjoint_source(P.shuffle_list_with_generator)
