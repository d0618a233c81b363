"""Behaviour the mutation run (tools/mutate.py) found unpinned in runtime/rules/methods.py:
which ndarray methods may return a view of the receiver, and which change it in place.
A write through a view, or an in-place method, must give the right gradient or be
refused with a TransformError; never a silent wrong gradient."""
import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad
from tests.gradcheck import POLICIES
from transform import TransformError, grad

X = np.array([0.3, -1.2, 0.7, 2.0])


def write_through_view(x):
    y = np.exp(x)
    v = y.view()
    v[0] = 5.0
    return np.sum(y * x)


def write_through_reshape(x):
    y = np.exp(x)
    v = y.reshape(2, 2)
    v[0, 0] = 5.0
    return np.sum(y * x)


def write_through_ravel(x):
    y = np.exp(x).reshape(2, 2)
    v = y.ravel()
    v[3] = 5.0
    return np.sum(y[1] * x[:2])


def write_through_transpose(x):
    y = np.exp(x).reshape(2, 2)
    v = y.transpose()
    v[0, 1] = 5.0
    return np.sum(y[1] * x[:2])


def write_through_swapaxes(x):
    y = np.exp(x).reshape(2, 2)
    v = y.swapaxes(0, 1)
    v[0, 1] = 5.0
    return np.sum(y[1] * x[:2])


def write_through_squeeze(x):
    y = np.exp(x).reshape(1, 4)
    v = y.squeeze()
    v[1] = 5.0
    return np.sum(y * x)


def fill_in_place(x):
    y = np.exp(x)
    y.fill(3.0)
    return np.sum(y * x)


def put_in_place(x):
    y = np.exp(x)
    y.put([0, 2], [1.0, 2.0])
    return np.sum(y * x)


WRITES = [write_through_view, write_through_reshape, write_through_ravel,
          write_through_transpose, write_through_swapaxes, write_through_squeeze,
          fill_in_place, put_in_place]


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn", WRITES, ids=lambda f: f.__name__)
def test_a_write_the_receiver_shares_is_right_or_refused(fn, policy):
    """exp's cotangent reads its answer y, so a write into y that the alias check misses
    (a view not declared as one, an in-place method not declared) changes the gradient."""
    try:
        got = grad(fn, policy=policy)(X.copy())
    except TransformError:
        return
    assert_close(got, numerical_grad(fn, (X.copy(),), 0), rtol=1e-6)


def reduce_then_write(x):
    y = np.exp(x)
    s = y.sum() + y.max() + y.mean()
    y[0] = 1.0
    return s * np.sum(y * x)


@pytest.mark.parametrize("policy", POLICIES)
def test_methods_returning_new_arrays_allow_a_later_write(policy):
    """sum, max and mean return new values: writing into the receiver afterwards is
    differentiated (not refused as a write into a view)."""
    got = grad(reduce_then_write, policy=policy)(X.copy())
    assert_close(got, numerical_grad(reduce_then_write, (X.copy(),), 0), rtol=1e-6)


def fill_a_fresh_array(x):
    y = np.zeros(4)
    y.fill(x[0])
    return np.sum(y * x)


@pytest.mark.parametrize("policy", POLICIES)
def test_fill_of_a_fresh_array_is_differentiated(policy):
    """`y.fill(v)` is declared in place, so the alias check follows the write and fill's
    rule gives v its cotangent (an undeclared method call whose result is unused and that
    takes a differentiated value is refused instead)."""
    got = grad(fill_a_fresh_array, policy=policy)(X.copy())
    assert_close(got, numerical_grad(fill_a_fresh_array, (X.copy(),), 0), rtol=1e-6)


def put_into_a_fresh_array(x):
    y = np.zeros(4)
    y.put([0, 2], x[:2])
    return np.sum(y * x)


def write_through_array_view(x):
    y = np.zeros(4)
    v = y.__array__()
    v[0] = x[0] * 2.0
    return np.sum(y * x)


def write_through_view_of_constant(x):
    y = np.zeros(4)
    v = y.view()
    v[0] = x[0] * 2.0
    return np.sum(y * x)


@pytest.mark.parametrize("fn,says", [
    (put_into_a_fresh_array, r"`\.put\(\)` changes `y` in place"),
    (write_through_array_view, r"`v` may be a view of `y`"),
    (write_through_view_of_constant, r"`v` may be a view of `y`")],
    ids=["put", "__array__", "view"])
def test_refusals_name_the_in_place_method_or_the_view(fn, says):
    """The refusal says what happened: an in-place method (put is declared one) or a
    write through a view (view and __array__ are declared to return one)."""
    with pytest.raises(TransformError, match=says):
        grad(fn)(X.copy())


def sort_in_place(x):
    y = np.exp(x)
    y.sort()
    return np.sum(y * x)


def partition_in_place(x):
    y = np.exp(x)
    y.partition(2)
    return np.sum(y * x)


@pytest.mark.parametrize("fn,instead", [(sort_in_place, r"`y = np\.sort\(y\)`"),
                                        (partition_in_place, r"`y = np\.partition\(y, kth\)`")],
                         ids=["sort", "partition"])
def test_sort_and_partition_in_place_are_refused_with_what_to_write(fn, instead):
    """x.sort() and x.partition(k) reorder the receiver in place, which the backward
    sweep cannot undo: refused, saying what to write instead."""
    with pytest.raises(TransformError, match=instead):
        grad(fn)(X.copy())
