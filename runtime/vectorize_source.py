"""np.vectorize written in Python, so the compiler differentiates it as it does a
user's helper (transform/frontend/vectorize_calls.py calls these in its place): the
function is called once per element of the inputs broadcast together, in C order, as
np.vectorize calls it, and the results are gathered in the first result's dtype."""
import numpy as np

from .rules.vectorized import vectorized_result


def vectorized_1(function, where, a):
    outs = [function(t) for t in np.ravel(a)]
    return vectorized_result(outs, np.shape(a), where)


def vectorized_2(function, where, a, b):
    a, b = np.broadcast_arrays(a, b)
    outs = [function(s, t) for s, t in zip(np.ravel(a), np.ravel(b))]
    return vectorized_result(outs, np.shape(a), where)


def vectorized_3(function, where, a, b, c):
    a, b, c = np.broadcast_arrays(a, b, c)
    outs = [function(r, s, t) for r, s, t in zip(np.ravel(a), np.ravel(b), np.ravel(c))]
    return vectorized_result(outs, np.shape(a), where)


HELPERS = (vectorized_1, vectorized_2, vectorized_3)
__all__ = ["vectorized_1", "vectorized_2", "vectorized_3", "HELPERS"]
