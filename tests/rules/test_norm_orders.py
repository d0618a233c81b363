"""np.linalg.norm: the vector and matrix orders test_reductions.py leaves out (negative
integer orders, large p, float orders on stacked axes, keepdims with every matrix order
and with vector orders)."""
import numpy as np
import pytest

from tests.rules.checks import case, check_float32, check_rule, newer, rand

V = rand(5, seed=3)
A = rand(3, 4, seed=4)
B = rand(2, 3, 4, seed=5)
CASES = ([case(np.linalg.norm, V, ord=o) for o in (-1, -2, 4, 1.5, -0.5, 2.5)]
         + [case(np.linalg.norm, A, ord=o, axis=0) for o in (-1, -2, 4, 1.5)]
         + [case(np.linalg.norm, B, ord=o, axis=(0, 2)) for o in ("fro", "nuc", 2, -2, 1, -np.inf)]
         + [case(np.linalg.norm, A.T, ord=o, keepdims=True) for o in ("fro", "nuc", 1, -1, 2, -2,
                                                                       np.inf, -np.inf)]
         + [case(np.linalg.norm, V, ord=o, keepdims=True) for o in (None, 1, 2, np.inf, -np.inf, 0)]
         + [case(np.linalg.norm, B, ord=o, axis=-1, keepdims=True) for o in (1, np.inf, -2, 0.5)]
         + [case(newer("linalg.vector_norm"), B, ord=o, axis=1) for o in (-1, 0.5, 3, -np.inf)]
         + [case(newer("linalg.matrix_norm"), B, ord=o) for o in (2, -2, 1, -1, np.inf, "fro")])


@pytest.mark.parametrize("fn, args, kwargs", CASES)
def test_matches_finite_differences(fn, args, kwargs):
    check_rule(fn, args, kwargs)


@pytest.mark.parametrize("fn, args, kwargs", CASES)
def test_float32_stays_float32(fn, args, kwargs):
    check_float32(fn, args, kwargs)
