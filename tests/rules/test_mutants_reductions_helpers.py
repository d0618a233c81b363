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
