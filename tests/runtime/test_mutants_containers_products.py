"""A list times a NumPy array multiplies entry by entry (NumPy converts the list); the
repetition rule of `list * n` read it as copies: a wrong gradient with no error (found
while judging runtime/helpers.py's mutants, session 27). Where the compiler does not see
the list (a helper's `x * w`, `product_or_repeat_vjp`) the product rule gives it; where it
does (`repeat_sequence`) it was refused by a TypeError from the generated code (a crash to
the fuzzer, found by its idioms class in session 29), and now uses the same rule."""
import numpy as np
import pytest

from runtime.containers import product_or_repeat_vjp, repeat_sequence
from tests.fd import assert_close, numerical_grad
from tests.gradcheck import POLICIES
from transform import grad

W = np.array([2.0, -1.5])


def list_times_array(a):
    zs = [a[0] * 2.0, a[1] * 3.0]
    return np.sum((zs * W) ** 2)


def array_times_tuple(a):
    return np.sum(W * (a[0], a[1] * a[0]))


def rows_times_argument(a, w):
    return np.sum(np.sin([a, a * a] * w) ** 2) + np.sum(np.mean([[a[0]], (a[1],)] * w, axis=0))


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("f", [list_times_array, array_times_tuple], ids=lambda f: f.__name__)
def test_a_sequence_times_an_array_in_view_multiplies(f, policy):
    a = np.array([0.3, -1.2])
    assert_close(grad(f, policy=policy)(a), numerical_grad(f, [a], 0))


@pytest.mark.parametrize("policy", POLICIES)
def test_a_list_of_arrays_times_an_argument(policy):
    a, w = np.array([0.3, -1.2]), np.array([2.0, -1.5])
    for wrt in (0, 1):
        assert_close(grad(rows_times_argument, wrt=wrt, policy=policy)(a, w),
                     numerical_grad(rows_times_argument, [a, w], wrt))


def _times(x, w):
    return x * w


def list_through_helper(a, w):
    return np.sum(_times([a[0] * 2.0, a[1] * 3.0], w) ** 2) + np.sum(_times(w, [a[1], 1.0]))


@pytest.mark.parametrize("policy", POLICIES)
def test_a_list_times_an_array_in_a_helper(policy):
    a, w = np.array([0.3, -1.2]), np.array([2.0, -1.5])
    for wrt in (0, 1):
        assert_close(grad(list_through_helper, wrt=wrt, policy=policy)(a, w),
                     numerical_grad(list_through_helper, [a, w], wrt))


def test_repetition_by_an_integer_is_unchanged():
    assert repeat_sequence([1.0, 2.0], 2) == [1.0, 2.0, 1.0, 2.0]
    assert repeat_sequence((1.0,), np.int64(3)) == (1.0, 1.0, 1.0)
    assert product_or_repeat_vjp([1.0, 2.0, 3.0, 4.0], [0.5, 0.5], 2) == [4.0, 6.0]
    assert product_or_repeat_vjp([1.0, 2.0, 3.0, 4.0], 2, [0.5, 0.5]) is None
