"""Behaviour the mutation run (docs/testing.md, session 29 mutA) found unpinned in
runtime/rules/norm_helpers.py's complex dispatch: a vector norm of complex values
along one axis (ord 2, -2, 1, inf) is a norm of the moduli, differentiated, while
only the matrix 2-norm, -2-norm and nuclear norm (two axes) are refused."""
import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_grad
from tests.rules.checks import rand
from transform import TransformError, grad

A, B = rand(3, 4, seed=31), rand(3, 4, seed=32)
W = rand(3, seed=33)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("ord_", [2, -2, 1, np.inf, None])
@pytest.mark.parametrize("axis", [1, -1, (1,)], ids=["1", "-1", "(1,)"])
def test_vector_norm_of_complex_rows(ord_, axis, policy):
    def rows(a, b):
        return np.sum(np.linalg.norm(a + 1j * b, ord=ord_, axis=axis) * W)
    check_grad(rows, [A.copy(), B.copy()], wrt=(0, 1), policy=policy)


def whole_default(a, b):
    return np.linalg.norm((a + 1j * b) * (0.5 - 2j)) + np.linalg.norm(a, keepdims=True)[0, 0]


@pytest.mark.parametrize("policy", POLICIES)
def test_whole_norm_of_a_complex_matrix_and_keepdims(policy):
    check_grad(whole_default, [A.copy(), B.copy()], wrt=(0, 1), policy=policy)


@pytest.mark.parametrize("ord_", [2, -2, "nuc"])
@pytest.mark.parametrize("axis", [None, (0, 1)], ids=["None", "(0,1)"])
def test_complex_matrix_spectral_norms_are_refused(ord_, axis):
    def spectral(a, b):
        return np.linalg.norm(a + 1j * b, ord=ord_, axis=axis)
    with pytest.raises(TransformError, match="Frobenius"):
        grad(spectral, wrt=(0, 1))(A.copy(), B.copy())
