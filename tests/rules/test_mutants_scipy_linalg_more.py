"""Mutation survivors of runtime/rules/scipy_linalg_more.py pinned by behaviour: sqrtm's
singularity test is relative to the matrix's scale (a tiny eigenvalue beside a huge one is
singular at working precision: its slope 1 / (2 sqrt(lambda)) would be read from a square
root that sqrtm computes to an absolute error of eps * the largest one), and is strict
(a sum of square roots exactly at the threshold is differentiated); lu_solve's factor
cotangent for both transposed kinds (trans=2 as 1 on real values) with a matrix or a vector b;
lu_factor and lu_solve on complex intermediate values (the plain transposes of the rule,
where a conjugate transpose would differ)."""
import numpy as np
import pytest

sl = pytest.importorskip("scipy.linalg")

from tests.fd import assert_close, numerical_grad  # noqa: E402
from transform import grad  # noqa: E402

RNG = np.random.default_rng(13)
A = RNG.normal(size=(4, 4)) + 3 * np.eye(4)
B = RNG.normal(size=(4, 2))
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


def test_sqrtm_exactly_at_the_threshold_is_differentiated():
    """ans = diag(5e-13, 0.9): min |l_i + l_j| = 1e-12 = 1e-12 * max(1, 0.9) exactly (the
    diagonal's square roots are exact), not below it: d sum(sqrtm(a)) / d a_00 is
    1 / (2 sqrt(a_00)) = 1e12, and the off-diagonal slopes 1 / (l_0 + l_1)."""
    a = np.diag([5e-13 ** 2, 0.81])
    root_0, root_1 = 5e-13, 0.9
    expected = np.array([[1 / (2 * root_0), 1 / (root_0 + root_1)],
                         [1 / (root_0 + root_1), 1 / (2 * root_1)]])
    assert_close(grad(root)(a), expected, rtol=1e-9, atol=0)


def transposed_solve(a, b, trans):
    return np.sum(np.sin(sl.lu_solve(sl.lu_factor(a), b, trans=trans)))


@pytest.mark.parametrize("trans", [1, 2])
@pytest.mark.parametrize("b", [B, B[:, 0]], ids=["matrix", "vector"])
def test_lu_solve_transposed_in_the_factor(b, trans):
    for wrt in (0, 1):
        assert_close(grad(transposed_solve, wrt=wrt)(A, b, trans),
                     numerical_grad(transposed_solve, [A, b, trans], wrt), rtol=1e-5, atol=1e-8)


def complex_factor(x, b):
    lu, piv = sl.lu_factor(x + 0.5j * x.T)          # complex L (a multiple of x keeps L real)
    return np.sum(np.abs(sl.lu_solve((lu, piv), b)) ** 2) + np.sum(np.abs(lu) ** 2)


def complex_rhs(x, b, trans):
    return np.sum(np.abs(sl.lu_solve(sl.lu_factor(x), b * (1.0 + 0.5j), trans=trans)) ** 2)


@pytest.mark.parametrize("wrt", [0, 1])
def test_lu_factor_of_a_complex_value(wrt):
    assert_close(grad(complex_factor, wrt=wrt)(A, B), numerical_grad(complex_factor, [A, B], wrt),
                 rtol=1e-5, atol=1e-8)


@pytest.mark.parametrize("trans", [0, 1, 2])
@pytest.mark.parametrize("wrt", [0, 1])
def test_lu_solve_of_a_complex_right_hand_side(wrt, trans):
    assert_close(grad(complex_rhs, wrt=wrt)(A, B, trans),
                 numerical_grad(complex_rhs, [A, B, trans], wrt), rtol=1e-5, atol=1e-8)
