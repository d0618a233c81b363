"""Session 34 (carried): scipy.linalg.eig and eigvals of a real matrix with a real,
distinct spectrum (runtime/rules/scipy_linalg_eig.py): SciPy's eigenvalues are complex
with zero imaginary parts, its eigenvectors real; losses reading the eigenvalues' real
parts (or the complex values through arithmetic) and sign-free functions of the unit-norm
eigenvectors, against central differences, in both modes; a complex spectrum and the
generalized problem are refused."""
import numpy as np
import pytest

from tests.fd import assert_close, numerical_jvp
from tests.gradcheck import check_grad
from transform import grad, jvp

sl = pytest.importorskip("scipy.linalg")

M = np.array([[2.0, 0.5, 0.1], [0.3, 1.0, 0.2], [0.0, 0.4, -1.0]])
ROTATION = np.array([[0.0, -1.0], [1.0, 0.0]])        # eigenvalues +-i


def values(a):
    w = sl.eigvals(a)
    return np.sum(w.real ** 3) + np.real(np.sum(w * w))


def values_and_vectors(a):
    w, v = sl.eig(a)
    return np.sum(np.real(w) * np.array([1.0, -2.0, 0.5])) + np.sum(v ** 2 * a)


def values_only(a):
    w = sl.eig(a, right=False)
    return np.sum(np.abs(w) ** 2)


@pytest.mark.parametrize("fn", [values, values_and_vectors, values_only])
def test_matches_finite_differences(fn):
    check_grad(fn, (M,))


@pytest.mark.parametrize("fn", [values, values_and_vectors])
def test_forward_mode(fn):
    t = np.arange(9.0).reshape(3, 3) / 9.0 - 0.4
    out, tangent = jvp(fn, (M,), (t,))
    assert_close(out, fn(M))
    assert np.all(np.imag(tangent) == 0)          # a real output's tangent (complex-typed)
    assert_close(np.real(tangent), numerical_jvp(fn, (M,), 0, t))


def test_a_complex_matrix_is_refused():
    from runtime import registry
    from runtime.complex_safety import ComplexRefused
    rule = registry.lookup(sl.eigvals)
    z = M + 0.5j * np.eye(3)
    with pytest.raises(ComplexRefused, match="real values only"):
        rule.vjp_function("a")(np.ones(3), sl.eigvals(z), a=z, b=None, overwrite_a=False,
                               check_finite=True, homogeneous_eigvals=False)


def generalized(a):
    return np.sum(sl.eigvals(a, np.eye(len(a)) * 2.0).real)


@pytest.mark.parametrize("fn, a, message", [(values, ROTATION, "complex eigenvalues"),
                                            (generalized, M, "without b=")])
def test_what_it_cannot_differentiate_is_refused(fn, a, message):
    with pytest.raises(Exception, match=message):
        grad(fn, wrt=0)(a)
