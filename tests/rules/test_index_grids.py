"""np.ix_ and np.unique on data without a derivative (finite-element connectivity, group
labels), declared without a derivative in session 40 (red41: `K[np.ix_(idx, idx)] +=
ke` and `for g in np.unique(groups)` were refused as functions with no rule): programs
under every policy and in forward mode against central differences in float64, a
repeated index keeping NumPy's buffered `+=`, and a differentiated argument refused."""
import numpy as np
import pytest

from tests.fd import assert_close, numerical_jvp
from tests.gradcheck import POLICIES, check_grad, rng
from transform import TransformError, grad, jvp

R = rng("index grids", 1)
X = R.normal(size=6)
GROUPS = np.array([2, 0, 2, 1, 0, 2])


def stiffness_blocks(x):
    K = np.zeros((4, 4))
    for e in range(3):
        K[np.ix_([e, e + 1], [e, e + 1])] += x[e] * np.array([[1.0, -1.0], [-1.0, 1.0]])
    K[np.ix_([0, 0], [1, 1])] += x[3]          # a repeated index: NumPy adds once
    return np.sum(K ** 2) + np.linalg.det(K + 3 * np.eye(4))


def block_read(x):
    return np.sum(np.outer(x, x[::-1])[np.ix_([0, 2, 4], [1, 3])] ** 2)


def group_sums(x):
    labels, counts = np.unique(GROUPS, return_counts=True)
    return sum(np.sum(x[GROUPS == g]) ** 2 / c for g, c in zip(labels, counts))


def group_scatter(x):
    u, inverse = np.unique(GROUPS, return_inverse=True)
    sums = np.zeros(len(u))
    np.add.at(sums, inverse, np.sin(x))
    return np.sum(sums ** 3)


PROGRAMS = (stiffness_blocks, block_read, group_sums, group_scatter)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn", PROGRAMS, ids=lambda f: f.__name__)
def test_against_finite_differences(fn, policy):
    check_grad(fn, (X,), policy=policy)


@pytest.mark.parametrize("fn", PROGRAMS, ids=lambda f: f.__name__)
def test_forward_mode(fn):
    v = rng("index grids", fn.__name__).normal(size=6)
    assert_close(jvp(fn, (X,), (v,))[1], numerical_jvp(fn, (X,), 0, v), 1e-6, 1e-7)


def unique_values(x):
    return np.sum(np.unique(x) ** 2)


def grid_of_values(x):
    return np.sum(np.ix_(x)[0])


@pytest.mark.parametrize("fn", (unique_values, grid_of_values), ids=lambda f: f.__name__)
def test_a_differentiated_argument_is_refused(fn):
    with pytest.raises(TransformError, match="no derivative rule"):
        grad(fn)(X)
