"""np.r_ / np.c_ with differentiated pieces (1-D, 2-D, scalars, slices, directives) and
np.meshgrid with differentiated inputs (xy and ij, sparse, three inputs), in programs
under every policy against central differences."""
import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_grad, rng

R = rng("assembly", 1)
A3, B3, B2 = R.normal(size=3), R.normal(size=3), R.normal(size=2)
M23, N23 = R.normal(size=(2, 3)), R.normal(size=(2, 3))


def r_mixed(a, b):
    return np.sum(np.r_[a, 0.5 * b, a[:1], 2.0, 0:2] ** 3)


def r_rows_of_matrices(m, n):
    return np.sum(np.r_[m, n * m] ** 2)


def r_axis_directive(m, n):
    return np.sum(np.r_["1", m, np.sin(n)] * np.arange(12.0).reshape(2, 6))


def c_columns(a, b):
    M = np.c_[a, b, a * b]
    return np.sum(M.T @ M)


def c_of_matrices(m, n):
    return np.sum(np.c_[m, n] ** 2 * np.arange(12.0).reshape(2, 6))


def meshgrid_potential(x, y):
    X, Y = np.meshgrid(x, y)
    return np.sum(np.exp(-(X ** 2 + 2 * Y ** 2)) * X)


def meshgrid_three_sparse_ij(x, y, z):
    X, Y, Z = np.meshgrid(x, y, z, indexing="ij", sparse=True)
    return np.sum(np.tanh(X * Y + Z ** 2))


PROGRAMS = [(r_mixed, [A3, B2]), (r_rows_of_matrices, [M23, N23]),
            (r_axis_directive, [M23, N23]), (c_columns, [A3, B3]), (c_of_matrices, [M23, N23]),
            (meshgrid_potential, [A3, B2]), (meshgrid_three_sparse_ij, [A3, B2, B3])]


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn, args", PROGRAMS, ids=[p[0].__name__ for p in PROGRAMS])
def test_against_finite_differences(fn, args, policy):
    check_grad(fn, args, policy=policy)
