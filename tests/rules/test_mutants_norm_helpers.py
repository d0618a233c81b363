"""Behaviour the mutation run (tools/mutate.py) found unpinned in
runtime/rules/norm_helpers.py: each test kills a mutant the other tests let through."""
import numpy as np
import pytest

from tests.gradcheck import check_grad
from transform import grad

WITH_A_ZERO = np.array([1.5, 0.0, -2.0])


def one_norm(x):
    return np.linalg.norm(x, 1)


def three_norm(x):
    return np.linalg.norm(x, 3)


@pytest.mark.parametrize("norm", [one_norm, three_norm])
def test_a_zero_entry_gets_no_cotangent(norm):
    """|x| has slope 0 at 0 in the central difference; the rule multiplies by sign(x)
    there (a division would give inf or NaN)."""
    check_grad(norm, (WITH_A_ZERO,))


def one_norm_of(x):
    return np.linalg.norm(x, 1) * 2.0


def test_the_one_norm_at_zero_divides_nothing():
    """The 1-norm's cotangent is g * sign(x): no |x| / norm, which is 0 / 0 at x = 0 and
    raises under np.errstate(invalid="raise")."""
    with np.errstate(invalid="raise", divide="raise"):
        assert np.array_equal(grad(one_norm_of)(np.zeros(3)), np.zeros(3))


@pytest.mark.skipif(not hasattr(np.linalg, "vector_norm"), reason="NumPy 2.0+")
def test_vector_norm_with_ord_none_is_the_two_norm():
    """np.linalg.vector_norm(x, ord=None) is the 2-norm (NumPy accepts None)."""
    check_grad(lambda x: np.linalg.vector_norm(x, ord=None), (WITH_A_ZERO + 0.5,))


def rows_norms(x):
    return np.sum(np.linalg.norm(x, axis=1) * np.array([1.0, 2.0]))


def test_a_zero_row_has_a_zero_two_norm_cotangent():
    """At a zero vector the 2-norm's cotangent is 0 (the documented choice), not 0 / 0."""
    x = np.array([[0.0, 0.0, 0.0], [1.0, -2.0, 2.0]])
    assert np.array_equal(grad(rows_norms)(x)[0], np.zeros(3))
    check_grad(rows_norms, (x + np.array([[0.5, 0.1, -0.3], [0.0, 0.0, 0.0]]),))


def matrices_fro(x):
    return np.sum(np.linalg.norm(x, axis=(1, 2)) * np.array([1.0, 2.0]))


def test_a_zero_matrix_has_a_zero_frobenius_cotangent():
    x = np.zeros((2, 2, 2))
    x[1] = [[1.0, 2.0], [-1.0, 0.5]]
    assert np.array_equal(grad(matrices_fro)(x)[0], np.zeros((2, 2)))


def min_magnitude(x):
    return np.linalg.norm(x, -np.inf)


def test_the_minus_inf_norm_shares_the_cotangent_among_ties():
    """A tie for the smallest magnitude splits the cotangent equally (documented)."""
    assert np.allclose(grad(min_magnitude)(np.array([1.0, -1.0, 3.0])), [0.5, -0.5, 0.0])


@pytest.mark.parametrize("ord", [np.inf, 1])
def test_a_zero_entry_of_the_picked_line_gets_no_cotangent(ord):
    """Matrix 1 / inf norms (and the vector inf norm) pick lines or entries by |x|; a
    zero entry among them has slope 0, never g / sign(0)."""
    x = np.array([[1.0, 0.0], [2.0, 5.0]]) if ord == 1 else np.array([[1.0, 2.0], [0.0, 5.0]])
    check_grad(lambda m: np.linalg.norm(m, ord), (x,))
    assert np.array_equal(grad(lambda v: np.linalg.norm(v, np.inf))(np.zeros(3)), np.zeros(3))


def three_d_kept(x):
    return np.sum(np.linalg.norm(x, keepdims=True) * 2.0)


def test_the_norm_of_a_3d_array_with_keepdims():
    """No ord and no axis is the 2-norm of every entry, at any ndim (not a matrix norm)."""
    check_grad(three_d_kept, (np.arange(1.0, 9.0).reshape(2, 2, 2),))


def test_matrix_norm_vjp_refuses_an_unknown_order():
    """Templates reach this only after NumPy accepted ord; a direct caller is told."""
    from runtime.rules.norm_helpers import matrix_norm_vjp
    with pytest.raises(ValueError, match="invalid norm order"):
        matrix_norm_vjp(1.0, 1.0, np.eye(2), "bad", (0, 1), False)
