"""Behaviour the session-29 mutation run found unpinned in runtime/rules/shape_helpers.py
(the casts: `unstack_vjp`'s array path, `float_type_vjp`, `cast_back`) and in
runtime/rules/statistics_helpers.py (`np.cov` of one row read as observations). Each
test kills a mutant the rule's own tests and the complex tests let through."""
import warnings

import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_grad

W = np.array([1 + 2j, -0.5 + 1j, 2 - 1j])
X = np.array([0.3, -1.2, 0.7])
Y = np.array([0.1, 0.4, -0.9])


def complex_copy_of_real(x):
    """np.array(x, dtype=complex) of a real array, and x read again: the complex
    cotangent's real part is x's (docs/complex.md)."""
    z = np.array(x, dtype=complex) * W
    return np.sum(np.abs(z) ** 2) + np.sum(x * 3.0)


def float64_of_python_float(x):
    return np.abs(np.float64(x) * (1 + 2j)) ** 2 + x


def complex_astype_complex(x, y):
    """astype of a complex value to its own dtype: both parts of the cotangent stay."""
    z = (x + 1j * y).astype(np.complex128)
    return np.sum(np.abs(z * W) ** 2 + np.real(z * W))


def real_astype_complex(x):
    return np.sum(np.abs(x.astype(np.complex128) * W) ** 2)


def float64_of_a_list(a, b):
    """np.float64 of a list of Python floats is an array: its cotangent is one too, not
    a Python float (float_type_vjp converts only a 0-d cotangent)."""
    return np.sum(np.float64([a, 2.0 * b]) * np.array([2.0, -3.0])) + a * b


CASES = [(complex_copy_of_real, (X,)), (float64_of_python_float, (0.7,)),
         (float64_of_a_list, (0.5, 1.5)),
         (complex_astype_complex, (X, Y)), (real_astype_complex, (X,))]


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("f, args", CASES, ids=[f.__name__ for f, _ in CASES])
def test_casts_between_real_and_complex(f, args, policy):
    """Gradients against finite differences, each of its argument's type and dtype (a
    complex cotangent never reaches a real argument), and no ComplexWarning: the real
    part is taken, not left to a discarding cast."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", np.exceptions.ComplexWarning)
        check_grad(f, args, policy=policy)


def covariance_of_one_observation(m):
    """rowvar=False with m of one row: n variables, one observation (NumPy transposes
    a 2-D m whatever its rows; y only when it has more than one)."""
    return np.sum(np.cov(m, rowvar=False, bias=True) * np.arange(9.0).reshape(3, 3))


def covariance_with_a_one_row_y(m, y):
    return np.sum(np.cov(m, y, rowvar=False, bias=True) ** 2)


@pytest.mark.parametrize("policy", POLICIES)
def test_cov_of_a_single_row_with_rowvar_false(policy):
    """One observation: the covariance is zero and so is its gradient, shaped like m."""
    check_grad(covariance_of_one_observation, (np.array([[0.5, -1.0, 2.0]]),),
               policy=policy)


@pytest.mark.parametrize("policy", POLICIES)
def test_cov_with_a_one_row_y_and_rowvar_false(policy):
    """m (4, 2): two variables over four observations; y (1, 4): one row, read as one
    variable, not transposed."""
    m = np.array([[0.5, -1.0], [2.0, 0.3], [-0.7, 1.1], [0.2, 0.9]])
    check_grad(covariance_with_a_one_row_y, (m, np.array([[1.0, -0.4, 0.6, 2.0]])),
               policy=policy)



def test_joins_read_a_list_cotangent_as_an_array():
    """concatenate_vjp / hstack_vjp given a list (the builtin sum, a user rule and vjp's
    seed gave lists before session 29; tests/rules/test_list_cotangents_of_arrays.py):
    cut like the array, each piece an ndarray of its input's shape."""
    from runtime.rules.shape_helpers import concatenate_vjp, hstack_vjp
    a, b = np.ones(2), np.ones(1)
    for pieces in (concatenate_vjp([1.0, 2.0, 3.0], [a, b], 0),
                   hstack_vjp((1.0, 2.0, 3.0), (a, b))):
        assert [type(p) for p in pieces] == [np.ndarray, np.ndarray]
        assert [p.tolist() for p in pieces] == [[1.0, 2.0], [3.0]]


def test_cot_dtype_of_a_list_of_entry_cotangents():
    """A list of per-entry cotangents (a user rule's or the builtin sum's over a list)
    is typed by its entries: complex entries keep a real x's cotangent complex here."""
    from runtime.rules.shape_helpers import cot_dtype
    assert cot_dtype([1 + 2j, 0.5], np.ones(2)) == np.complex128
    assert cot_dtype((np.float32(1.0), np.float32(2.0)), np.ones(2, np.float32)) == np.float32
