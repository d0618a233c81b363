"""Behaviour the mutation run (tools/mutate.py) found unpinned in
runtime/rules/reductions_helpers.py: each test kills a mutant the other tests let through."""
import numpy as np

from tests.gradcheck import check_grad

A = np.array([[1.0, 2.0, 4.0], [3.0, -1.0, 0.5]])


def weighted_all(a, w):
    return np.average(a, weights=w)


def weighted_rows(a, w):
    return np.sum(np.average(a, axis=1, weights=w) * np.array([1.0, 3.0]))


def test_np_average_weights_get_their_cotangent():
    """d average / d w = (a - average) / sum(w), summed to the weights' shape."""
    check_grad(weighted_all, (A, np.array([[1.0, 2.0, 0.5], [1.5, 1.0, 2.0]])))
    check_grad(weighted_rows, (A, np.array([1.0, 2.0, 0.5])))


def test_prod_of_a_single_element_is_the_identity():
    """d prod([x]) / dx = 1 (a one-element product, not an empty one)."""
    check_grad(lambda a: np.prod(a) * 2.0, (np.array([3.0]),))
    check_grad(lambda a: np.sum(np.prod(a, axis=1)), (np.array([[3.0], [-2.0]]),))


def full_weights_rows(a, w):
    return np.sum(np.average(a, axis=1, weights=w) * np.array([1.0, 3.0, -2.0]))


def test_np_average_full_shape_weights_along_an_axis():
    """Weights of a's shape along axis 1 of a square matrix: each row divides by its own
    weight sum (a sum without keepdims would divide columns by row sums)."""
    a = np.arange(9.0).reshape(3, 3)
    w = np.array([[1.0, 2.0, 3.0], [0.5, 1.0, 4.0], [2.0, 2.0, 1.0]])
    check_grad(full_weights_rows, (a, w))
