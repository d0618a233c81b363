"""Mutation survivors of runtime/rules/scipy_linalg_more.py pinned by behaviour: sqrtm's
singularity test is relative to the matrix's scale (a tiny eigenvalue beside a huge one is
singular at working precision: its slope 1 / (2 sqrt(lambda)) would be read from a square
root that sqrtm computes to an absolute error of eps * the largest one)."""
import numpy as np
import pytest

sl = pytest.importorskip("scipy.linalg")

from tests.fd import assert_close, numerical_grad  # noqa: E402
from transform import grad  # noqa: E402

ROTATION = np.array([[0.6, -0.8], [0.8, 0.6]])


def root(a):
    return np.sum(sl.sqrtm(a))


@pytest.mark.parametrize("a", [np.diag([1e12, 1e-14]), np.array([[1e12, 1.0], [0.0, 1e-14]]),
                               np.array([[1e12, 0.0], [3.0, 1e-14]])],
                         ids=["diagonal", "upper", "lower"])
def test_sqrtm_singular_relative_to_its_scale_is_refused(a):
    """sqrt eigenvalues 1e6 and 1e-7: |1e-7 + 1e-7| < 1e-12 * 1e6, refused (an absolute
    or inverted threshold, 1e-12 / 1e6, would let it through)."""
    with pytest.raises(ValueError, match="singular"):
        grad(root)(a)


def test_sqrtm_of_a_large_well_conditioned_matrix_is_differentiated():
    """The same scale with every eigenvalue large is not refused (threshold 1e-6 against
    sums of square roots near 2e3), and matches central differences."""
    a = ROTATION @ np.diag([1e6, 4e6]) @ ROTATION.T
    assert_close(grad(root)(a), numerical_grad(root, [a], 0, eps=1e-2), rtol=1e-5, atol=1e-12)
