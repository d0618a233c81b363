"""Lists -- literals, append, indexing (also negative), iteration, len,
sum(list), np.array(list), np.stack / np.concatenate of a list, lists built in a
loop and reduced after it, item assignment, slicing; extend and `+` (known bugs)."""
import numpy as np
import pytest

from transform import grad

from . import funcs as F
from .check import check_grad, policies

X, Y = 0.7, -1.3
A = np.array([0.3, -0.8, 1.1])
B = np.array([1.2, 0.4, -0.5])
A4 = np.array([0.3, -0.8, 1.1, 0.6])
W3 = np.array([[0.4, -0.3, 0.2], [0.1, 0.5, -0.6], [-0.2, 0.3, 0.45]])

CASES = {
    "list_literal_index_s": (F.list_literal_index_s, (X, Y), (0, 1)),
    "list_literal_index_a": (F.list_literal_index_a, (A, B), (0, 1)),
    "list_append_s": (F.list_append_s, (X,), 0),
    "list_append_a": (F.list_append_a, (A,), 0),
    "list_iterate_s": (F.list_iterate_s, (X, Y), (0, 1)),
    "list_iterate_a": (F.list_iterate_a, (A, B), (0, 1)),
    "list_len_s": (F.list_len_s, (X,), 0),
    "list_sum_s": (F.list_sum_s, (X, Y), (0, 1)),
    "list_sum_a": (F.list_sum_a, (A, B), (0, 1)),
    "np_array_of_list_s": (F.np_array_of_list_s, (X, Y), (0, 1)),
    "np_array_of_list_a": (F.np_array_of_list_a, (A,), 0),
    "np_stack_list_a": (F.np_stack_list_a, (A, B), (0, 1)),
    "np_stack_axis_a": (F.np_stack_axis_a, (A, B), (0, 1)),
    "np_concatenate_list_a": (F.np_concatenate_list_a, (A, B), (0, 1)),
    "list_built_in_loop_sum_s": (F.list_built_in_loop_sum_s, (X,), 0),
    "list_built_in_loop_stack_a": (F.list_built_in_loop_stack_a, (A, W3), (0, 1)),
    "list_built_in_loop_concat_a": (F.list_built_in_loop_concat_a, (A,), 0),
    "list_built_in_loop_reduce_loop_s": (F.list_built_in_loop_reduce_loop_s, (X,), 0),
    "list_comprehension_a": (F.list_comprehension_a, (A,), 0),
    "list_setitem_s": (F.list_setitem_s, (X,), 0),
    "list_slice_a": (F.list_slice_a, (A4,), 0),
    "list_unused_element_a": (F.list_unused_element_a, (A,), 0),
}


@pytest.mark.parametrize("policy", policies())
@pytest.mark.parametrize("name", list(CASES))
def test_gradient_matches_finite_differences(name, policy):
    fn, args, wrt = CASES[name]
    check_grad(fn, args, wrt=wrt, policy=policy)


def test_len_of_list_is_a_constant():
    # f = 3x + x^2  ->  3 + 2x
    assert grad(F.list_len_s)(X) == pytest.approx(3 + 2 * X, rel=1e-12)


def test_sum_of_list_exact():
    # f = (x + y^2 + x y) x
    dx, dy = grad(F.list_sum_s, wrt=(0, 1))(X, Y)
    assert dx == pytest.approx(2 * X + Y * Y + 2 * X * Y, rel=1e-12)
    assert dy == pytest.approx((2 * Y + X) * X, rel=1e-12)


def test_unused_list_elements_get_zero_gradient():
    g = grad(F.list_unused_element_a)(A)
    np.testing.assert_array_equal(g, [2.0, 0.0, 0.0])


def test_list_built_in_loop_of_many_steps():
    """A 200-element list built in a loop and summed after it: depth does not grow."""
    x = np.linspace(-1.0, 1.0, 200)
    g = grad(F.list_append_loop_long)(x)
    np.testing.assert_allclose(g, 2 * x + np.cos(x), rtol=1e-12)


@pytest.mark.parametrize("policy", policies())
def test_list_extend(policy):
    check_grad(F.list_extend_s, (X,), wrt=0, policy=policy)


@pytest.mark.parametrize("policy", policies())
def test_list_concatenation(policy):
    check_grad(F.list_concat_s, (X,), wrt=0, policy=policy)
