"""Behaviour the mutation run (tools/mutate.py) found unpinned in
runtime/rules/decompositions_helpers.py and linalg_helpers.py: each test kills a mutant
the other tests let through."""
import numpy as np

from tests.gradcheck import check_grad, rng


def _spd(r, *batch):
    m = r.standard_normal((*batch, 3, 3))
    return m @ np.swapaxes(m, -1, -2) + 3.0 * np.eye(3)


def test_solve_with_a_matrix_b_one_axis_short_of_a():
    """NumPy 2: b of shape (3, 3) against a stack a (3, 3, 3) is one matrix broadcast over
    the stack, not a stack of vectors (NumPy 1's reading)."""
    r = rng("solve")
    w = r.standard_normal((3, 3, 3))
    check_grad(lambda a, b: np.sum(np.linalg.solve(a, b) * w),
               (_spd(r, 3), r.standard_normal((3, 3))))


def test_cholesky_of_a_stack():
    """A stack of matrices: the triangular solves run per matrix (symmetric inputs,
    as cholesky reads one triangle)."""
    r = rng("cholesky")
    w = r.standard_normal((2, 3, 3))
    check_grad(lambda a: np.sum(np.linalg.cholesky((a + np.swapaxes(a, -1, -2)) / 2) * w),
               (_spd(r, 2),))


def test_inner_with_a_3d_second_operand():
    r = rng("inner")
    w = r.standard_normal((2, 2, 3))
    check_grad(lambda a, b: np.sum(np.inner(a, b) * w),
               (r.standard_normal((2, 4)), r.standard_normal((2, 3, 4))))


def test_multi_dot_of_four_factors():
    """The running left products: factor k sees the product of all factors before it."""
    r = rng("multi_dot")
    shapes = [(2, 3), (3, 4), (4, 2), (2, 3)]
    check_grad(lambda a, b, c, d: np.sum(np.linalg.multi_dot([a, b, c, d])),
               tuple(r.standard_normal(s) for s in shapes))
