"""Behaviour the mutation run (tools/mutate.py) found unpinned in runtime/helpers.py:
each test kills a mutant that every other test let through."""
import numpy as np
import pytest

from runtime.helpers import matmul_lhs, matmul_lhs_spread, matmul_rhs, matmul_rhs_spread
from tests.fd import assert_close, numerical_vjp
from tests.gradcheck import rng


@pytest.mark.parametrize("a_shape, b_shape", [((3,), (3, 4)), ((2, 2, 3), (3, 4)),
                                              ((2, 2, 3), (3,)), ((3,), (2, 3, 4))], ids=str)
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
