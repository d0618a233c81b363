"""Rules whose output is real for a complex input (var, std, nanvar, nanstd, vector_norm,
matrix_norm) and complex() of a complex value, against central differences under every
policy. Found while judging runtime/helpers.py's complex mutants (session 27): each gave
a wrong gradient with no error. var/std/nanvar/nanstd used the imaginary part of a
cotangent that np.dot, np.concatenate or np.einsum hands back to their real output;
nanvar/nanstd did not conjugate the deviation; vector_norm/matrix_norm had no complex
path (np.linalg.norm had); complex(z) took the real part of z's cotangent."""
import cmath

import numpy as np
import pytest

from transform import TransformError, grad
from tests.fd import assert_close, numerical_grad
from tests.gradcheck import POLICIES, rng

Z = np.array([1 + 2j, -0.5 + 1j])


def _loss(y):
    return np.sum(np.real(y) + 3 * np.imag(y))


def std_dot(a, b):
    return _loss(np.dot(np.std((a + 1j * b).reshape(2, 2), axis=1), Z))


def var_concatenate(a, b):
    u = (a + 1j * b).reshape(2, 2)
    return _loss(np.concatenate([np.var(u, axis=0), Z]))


def var_einsum(a, b):
    return _loss(np.einsum("i,i->", np.var((a + 1j * b).reshape(2, 2), axis=0), Z))


def scalar_var_in_a_list(a, b):
    return _loss(np.concatenate([[np.var(a + 1j * b)], Z]))


def method_moments(a, b):
    u = (a + 1j * b).reshape(2, 2)
    return _loss(np.concatenate([u.std(axis=0), u.var(axis=1, ddof=1), Z]))


def nanvar_alone(a, b):
    return np.nanvar(a + 1j * b)


def nanstd_alone(a, b):
    return np.nanstd((a + 1j * b).reshape(2, 2), axis=0)[1]


def nanvar_dot(a, b):
    return _loss(np.dot(np.nanvar((a + 1j * b).reshape(2, 2), axis=0), Z))


def vector_norm_weighted(a, b):
    u = (a + 1j * b).reshape(2, 2)
    return np.sum(np.linalg.vector_norm(u, axis=0) * np.array([1.0, 3.0])) + \
        np.linalg.vector_norm(u, ord=1) + np.linalg.vector_norm(u[0], ord=np.inf)


def matrix_norm_of_complex(a, b):
    u = (a + 1j * b).reshape(2, 2)
    return np.linalg.matrix_norm(u) + 2 * np.linalg.matrix_norm(u, ord=1)


def complex_of_complex(a, b):
    return np.real(complex(a[0] + 1j * b[0]) * (1 + 2j)) + np.imag(complex(a[1] + 1j * b[1]))


def phase_and_modulus(a, b):
    return cmath.phase(complex(a[0] + 1j * b[0])) + abs(complex(a[1] + 1j * b[1]))


def complex_with_complex_imag(a, b):
    return np.real(complex(a[0], a[1] + 1j * b[1]) * (2 - 1j))


PROGRAMS = [std_dot, var_concatenate, var_einsum, scalar_var_in_a_list, method_moments,
            complex_of_complex, phase_and_modulus,
            complex_with_complex_imag]


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("f", PROGRAMS, ids=lambda f: f.__name__)
def test_real_output_of_complex_values(f, policy):
    r = rng("complex-real-outputs", f.__name__)
    a, b = r.normal(size=4), r.normal(size=4)
    for wrt in (0, 1):
        assert_close(grad(f, wrt=wrt, policy=policy)(a, b), numerical_grad(f, [a, b], wrt),
                     rtol=1e-6, atol=1e-8)


def spectral_norm(a, b):
    return np.linalg.matrix_norm((a + 1j * b).reshape(2, 2), ord=2)


# Not declared complex-correct (the allow-list's audit): refused for every order, although
# their templates now conjugate the deviation and read only g's real part.
NOT_DECLARED = [(nanvar_alone, "nanvar"), (nanstd_alone, "nanstd"), (nanvar_dot, "nanvar"),
                (vector_norm_weighted, "vector_norm"), (matrix_norm_of_complex, "matrix_norm")]


@pytest.mark.parametrize("f, name", NOT_DECLARED, ids=lambda v: getattr(v, "__name__", v))
def test_rules_not_declared_complex_refuse(f, name):
    with pytest.raises(TransformError, match=f"{name}'s rule takes real values only"):
        grad(f)(np.ones(4), np.arange(4.0))


def test_complex_matrix_spectral_norm_is_refused():
    """As np.linalg.norm's: the singular values of a complex matrix are not |x|'s."""
    with pytest.raises(TransformError, match="matrix_norm's rule takes real values only"):
        grad(spectral_norm)(np.ones(4), np.arange(4.0))
