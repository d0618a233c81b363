"""Behaviour the mutation run (tools/mutate.py) found unpinned in
runtime/rules/decompositions_helpers.py and linalg_helpers.py: each test kills a mutant
the other tests let through."""
import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_grad, rng


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


def test_cholesky_of_a_stack_of_stacks():
    """Four axes: the diagonal's length is the last axis, not axis 1."""
    r = rng("cholesky4")
    w = r.standard_normal((2, 2, 3, 3))
    check_grad(lambda a: np.sum(np.linalg.cholesky((a + np.swapaxes(a, -1, -2)) / 2) * w),
               (_spd(r, 2, 2),))


def test_matrix_power_of_a_stack_of_stacks():
    r = rng("matrix_power4")
    a = 0.5 * r.standard_normal((2, 2, 3, 3))
    check_grad(lambda a: np.sum(np.linalg.matrix_power(a, 3)), (a,))


def test_hermitian_svd_and_pinv_have_no_rule():
    """Refused (at the user's line, since session 34) rather than differentiated as if
    hermitian were False."""
    from transform import TransformError, grad
    a = _spd(rng("hermitian"))
    with pytest.raises(TransformError, match="hermitian"):
        grad(lambda a: np.sum(np.linalg.svd(a, hermitian=True)[1]))(a)
    with pytest.raises(TransformError, match="hermitian"):
        grad(lambda a: np.sum(np.linalg.pinv(a, hermitian=True)))(a)


def test_full_svd_of_a_stack_of_wide_matrices_is_refused():
    from transform import TransformError, grad
    a = rng("svd wide").standard_normal((2, 3, 4))
    with pytest.raises(TransformError, match="non-square"):
        grad(lambda a: np.sum(np.linalg.svd(a)[0]))(a)


def test_eigh_eigenvalues_alone_keep_float32():
    from transform import grad
    a = _spd(rng("eigh32")).astype(np.float32)
    assert grad(lambda a: np.sum(np.linalg.eigh(a)[0]))(a).dtype == np.float32


@pytest.mark.parametrize("policy", POLICIES)
def test_cholesky_of_a_nan_matrix_gives_a_nan_gradient(policy):
    """NumPy's cholesky passes a NaN through (no LinAlgError), and so does its gradient:
    the triangular solves skip SciPy's finite check, which would raise ValueError in the
    backward sweep of a forward that ran (and only for one matrix: a stack goes through
    np.linalg.solve, which has no such check)."""
    from transform import grad
    a = _spd(rng("cholesky nan"))
    a[2, 2] = np.nan
    assert np.isnan(np.linalg.cholesky(a)[2, 2])
    gradient = grad(lambda a: np.sum(np.linalg.cholesky(a)), policy=policy)(a)
    assert np.isnan(gradient).any()
