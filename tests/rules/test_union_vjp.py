"""The dict-union rule (`p | q`, `p |= q`, `{**p, "k": v}`): each entry's cotangent goes to
the dict the merged entry came from, q's when both have the key; ints and bools carry none.
Whole programs are in tests/corpus/redteam29_fixes.py (finite differences, every policy)."""
import numpy as np

from runtime.rules.operators_helpers import union_vjp
from runtime.thunks import Thunk

G = np.array([1.0, 2.0])


def test_entries_go_to_the_dict_they_came_from():
    x, y = {"a": 1.0, "b": 2.0}, {"b": 3.0, "c": 4.0}
    g = {"a": G, "b": 2 * G, "c": 3 * G}
    left, right = union_vjp(g, x, y, 0), union_vjp(g, x, y, 1)
    assert list(left) == ["a"] and left["a"] is G
    assert list(right) == ["b", "c"]
    np.testing.assert_array_equal(right["b"], 2 * G)
    np.testing.assert_array_equal(right["c"], 3 * G)


def test_missing_and_none_entries_and_thunks():
    x, y = {"a": 1.0, "b": 2.0}, {"c": 4.0}
    g = Thunk(lambda: {"a": Thunk(lambda: G), "b": None})
    left = union_vjp(g, x, y, 0)
    assert list(left) == ["a"] and left["a"] is G   # thunks forced, None entries dropped
    assert union_vjp(g, x, y, 1) is None            # c never read: no cotangent
    assert union_vjp({"b": None}, x, y, 0) is None


def test_numbers_and_masks_carry_no_cotangent():
    assert union_vjp(G, np.array([True, False]), np.array([False, False]), 0) is None
    assert union_vjp(1.0, 3, 5, 1) is None
    assert union_vjp(None, {"a": 1.0}, {"b": 2.0}, 0) is None
