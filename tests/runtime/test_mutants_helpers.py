"""Behaviour the mutation run (tools/mutate.py) found unpinned in runtime/helpers.py:
each test kills a mutant that every other test let through."""
import numpy as np
import pytest

from runtime.helpers import (matmul_lhs, matmul_lhs_spread, matmul_rhs, matmul_rhs_spread,
                             pow_exponent_vjp)
from tests.fd import assert_close, numerical_vjp
from tests.gradcheck import POLICIES, check_grad, rng


@pytest.mark.parametrize("a_shape, b_shape", [((3,), (3, 4)), ((2, 2, 3), (3, 4)),
                                              ((2, 2, 3), (3,)), ((3,), (2, 3, 4)),
                                              ((2, 3), (2, 3, 4))], ids=str)
def test_matmul_spread_of_a_scalar_off_the_matrix_fast_path(a_shape, b_shape):
    """A scalar cotangent spread over a @ b when a is not a matrix (or b is batched):
    the general path, not the row-sum shortcut that only holds for a 2-D a."""
    r = rng("spread-general", *a_shape, 0, *b_shape)
    a, b = r.normal(size=a_shape), r.normal(size=b_shape)
    t = a @ b
    full = np.full(t.shape, 1.5)
    assert_close(matmul_lhs_spread(1.5, t, a, b), numerical_vjp(np.matmul, [a, b], 0, full))
    assert_close(matmul_rhs_spread(1.5, t, a, b), numerical_vjp(np.matmul, [a, b], 1, full))
    assert_close(matmul_lhs_spread(1.5, t, a, b), matmul_lhs(full, a, b))
    assert_close(matmul_rhs_spread(1.5, t, a, b), matmul_rhs(full, a, b))


def test_matmul_cotangents_of_a_list_operand():
    """`[1.0, 2.0] @ b`: a list has no ndim attribute; its rank comes from np.ndim."""
    a, b = [1.0, 2.0], np.array([3.0, 4.0])
    assert_close(matmul_lhs(2.0, a, b), [6.0, 8.0])
    assert_close(matmul_rhs(2.0, a, b), [2.0, 4.0])
    m = np.arange(6.0).reshape(2, 3)
    assert_close(matmul_lhs(np.ones(3), a, m), numerical_vjp(np.matmul, [np.array(a), m], 0,
                                                             np.ones(3)))


def test_pow_exponent_vjp_at_a_zero_base_with_a_zero_exponent():
    """0 ** 0 == 1, and the exponent's cotangent is taken as 0 where the base is 0 (the
    log of the base is replaced by log 1, not by any other number)."""
    x, y = np.array([0.0, 2.0]), np.array([0.0, 1.0])
    assert_close(pow_exponent_vjp(np.ones(2), x ** y, x, y), [0.0, 2.0 * np.log(2.0)])
    assert pow_exponent_vjp(2.0, 0.0 ** 0.0, 0.0, 0.0) == 0.0      # a Python-number base


def _list_at_vector(b):
    return [1.0, 2.0] @ b


def _vector_at_list(a):
    return a @ [1.0, 2.0]


@pytest.mark.parametrize("policy", POLICIES)
def test_matmul_of_a_list_and_a_vector_differentiates(policy):
    """A bug the list-operand test above found: the vector case multiplied the list by a
    NumPy float (`g * a`), a TypeError inside the generated pullback."""
    check_grad(_list_at_vector, (np.array([3.0, 4.0]),), policy=policy)
    check_grad(_vector_at_list, (np.array([3.0, 4.0]),), policy=policy)
