"""Tuples -- packing, unpacking (nested targets), indexing, swapping,
tuples carried around a loop, several values returned from a helper; starred
targets are rejected (tests/containers/test_errors.py)."""
import numpy as np
import pytest

from transform import grad

from . import funcs as F
from .check import check_grad, policies

X, Y = 0.7, -1.3
A = np.array([0.3, -0.8, 1.1])
B = np.array([1.2, 0.4, -0.5])
W3 = np.array([[0.4, -0.3, 0.2], [0.1, 0.5, -0.6], [-0.2, 0.3, 0.45]])

CASES = {
    "tuple_pack_index_s": (F.tuple_pack_index_s, (X, Y), (0, 1)),
    "tuple_pack_index_a": (F.tuple_pack_index_a, (A, B), (0, 1)),
    "tuple_unpack_s": (F.tuple_unpack_s, (X, Y), (0, 1)),
    "tuple_unpack_a": (F.tuple_unpack_a, (A, B), (0, 1)),
    "tuple_nested_targets_s": (F.tuple_nested_targets_s, (X, Y), (0, 1)),
    "tuple_nested_targets_a": (F.tuple_nested_targets_a, (A, B), (0, 1)),
    "tuple_swap_s": (F.tuple_swap_s, (X, Y), (0, 1)),
    "tuple_loop_state_s": (F.tuple_loop_state_s, (X, 0.8), (0, 1)),
    "tuple_loop_state_a": (F.tuple_loop_state_a, (A, W3), (0, 1)),
    "tuple_with_int_s": (F.tuple_with_int_s, (X,), 0),
    "tuple_iterate_a": (F.tuple_iterate_a, (A, B), (0, 1)),
    # several values returned from a helper
    "tuple_out_unpack_s": (F.tuple_out_unpack_s, (X, Y), (0, 1)),
    "tuple_out_unpack_a": (F.tuple_out_unpack_a, (A, B), (0, 1)),
    "tuple_out_nested_s": (F.tuple_out_nested_s, (X,), 0),
    "tuple_out_nested_a": (F.tuple_out_nested_a, (A,), 0),
}


@pytest.mark.parametrize("policy", policies())
@pytest.mark.parametrize("name", list(CASES))
def test_gradient_matches_finite_differences(name, policy):
    fn, args, wrt = CASES[name]
    check_grad(fn, args, wrt=wrt, policy=policy)


def test_nested_targets_exact():
    # (a, b), c = (x, y*y), x*y  ->  f = a b + c a = x y^2 + x^2 y
    dx, dy = grad(F.tuple_nested_targets_s, wrt=(0, 1))(X, Y)
    assert dx == pytest.approx(Y * Y + 2 * X * Y, rel=1e-12)
    assert dy == pytest.approx(2 * X * Y + X * X, rel=1e-12)


def test_swap_exact():
    # a, b = x, 2y; a, b = b, a  ->  f = (2y)^2 x
    dx, dy = grad(F.tuple_swap_s, wrt=(0, 1))(X, Y)
    assert dx == pytest.approx(4 * Y * Y, rel=1e-12)
    assert dy == pytest.approx(8 * X * Y, rel=1e-12)


# starred targets are rejected: see tests/containers/test_errors.py


@pytest.mark.parametrize("policy", policies())
def test_tuple_concatenation(policy):
    check_grad(F.tuple_concat_s, (X,), wrt=0, policy=policy)
