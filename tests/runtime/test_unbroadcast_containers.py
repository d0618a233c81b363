"""unbroadcast on a container value: a structured cotangent (a tuple stored into a list
or dict slot) passes through; an array or number cotangent is still summed to x's shape."""
import numpy as np

from runtime.helpers import unbroadcast


def test_a_structured_cotangent_passes_through():
    g = [np.ones(2), (2.0, None)]
    assert unbroadcast(g, (np.zeros(2), (1.0, 2.0))) is g


def test_an_array_cotangent_is_summed_to_a_list():
    assert np.array_equal(unbroadcast(np.ones((3, 2)), [1.0, 2.0]), [3.0, 3.0])


def test_a_number_cotangent_is_not_taken_for_a_structure():
    for g in (2.0, np.float64(2.0), 2):
        out = unbroadcast(g, [1.0, 2.0])
        assert isinstance(out, np.ndarray) and float(out) == 2.0
