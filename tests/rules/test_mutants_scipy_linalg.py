"""Behaviour the mutation run (tools/mutate.py) found unpinned in
runtime/rules/scipy_linalg.py: each test kills a mutant the other tests let through."""
import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_grad, rng

sl = pytest.importorskip("scipy.linalg")


def _spd(r, n):
    m = r.standard_normal((n, n))
    return m @ m.T + n * np.eye(n)


def cho_solve_matrix(K, B, W):
    c = sl.cho_factor((K + K.T) / 2, lower=False)        # the upper factor this time
    return np.sum(sl.cho_solve(c, B) * W)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("columns", [2, 3])
def test_cho_solve_with_a_matrix_right_hand_side(columns, policy):
    """The factor's cotangent takes the outer products gb x^T summed over b's columns
    (a matrix product); for one column `*` would give the same, and for a square b a
    wrong elementwise product."""
    r = rng("cho_solve matrix", columns)
    K, B, W = _spd(r, 3), r.standard_normal((3, columns)), r.standard_normal((3, columns))
    check_grad(cho_solve_matrix, (K, B, W), wrt=(0, 1), policy=policy)


def triangular_conjugate_transposed(a, b):
    return np.sum(np.cos(sl.solve_triangular(a, b, trans=2, lower=True)))


@pytest.mark.parametrize("policy", POLICIES)
def test_solve_triangular_with_trans_2(policy):
    """trans=2 ('C', the conjugate transpose: the transpose for real T) is a transposed
    solve like trans=1 and 'T'."""
    r = rng("solve_triangular trans=2")
    a = np.tril(r.standard_normal((3, 3))) + 3.0 * np.eye(3)
    check_grad(triangular_conjugate_transposed, (a, r.standard_normal(3)), wrt=(0, 1),
               policy=policy)
