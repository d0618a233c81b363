"""np.cov with mixed layouts: for rowvar=False NumPy transposes an argument unless it is
a single row (m: unless it is 1-D), so a 1-D y beside a 2-D x is one more variable (it crashed the rule)."""
import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_grad, rng

X = rng("cov", 1).standard_normal((5, 2))
Y = rng("cov", 2).standard_normal(5)
W = rng("cov", 3).standard_normal((3, 3))


def cov_columns_and_vector(x, y):
    return np.sum(np.cov(x, y, rowvar=False) * W)


def cov_vector_and_columns(y, x):
    return np.sum(np.cov(y, x, rowvar=False) * W)


def cov_single_row_no_transpose(x, y):
    return np.sum(np.cov(x, y, rowvar=False) * W[:2, :2])


@pytest.mark.parametrize("policy", POLICIES)
def test_two_d_x_one_d_y_rowvar_false(policy):
    check_grad(cov_columns_and_vector, [X, Y], policy=policy)


@pytest.mark.parametrize("policy", POLICIES)
def test_one_d_first_rowvar_false(policy):
    check_grad(cov_vector_and_columns, [Y, X], policy=policy)


@pytest.mark.parametrize("policy", POLICIES)
def test_single_row_matrix_is_not_transposed(policy):
    check_grad(cov_single_row_no_transpose, [X[:, :1].copy(), Y[None, :]], policy=policy)
