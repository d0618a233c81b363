"""The helpers rule templates call (runtime/helpers.py), as units: broadcasting undone,
reductions spread back, index and matmul cotangents (against the finite-difference
reference), transposes and reshapes undone."""
import math

import numpy as np
import pytest

from runtime.helpers import (accumulate_unbroadcast, fast_shape, index_vjp, matmul_lhs,
                             matmul_lhs_spread, matmul_rhs, matmul_rhs_spread,
                             pow_exponent_vjp, reduction_size, reshape_vjp, transpose_vjp,
                             unbroadcast, unreduce)
from runtime.tape import ShapeOnly
from tests.fd import assert_close, numerical_vjp
from tests.gradcheck import rng

G23 = np.arange(6.0).reshape(2, 3)


def test_fast_shape():
    assert fast_shape(ShapeOnly((4, 2), np.float64)) == (4, 2)
    assert fast_shape(2.0) == () and fast_shape(True) == () and fast_shape([1, 2]) == (2,)


# ---- unbroadcast ----------------------------------------------------------------------
def test_unbroadcast_sums_leading_and_stretched_axes():
    assert_close(unbroadcast(G23, np.ones(3)), [3.0, 5.0, 7.0])
    assert_close(unbroadcast(G23, np.ones((2, 1))), [[3.0], [12.0]])
    assert_close(unbroadcast(G23, np.ones((1, 3))), [[3.0, 5.0, 7.0]])
    assert_close(unbroadcast(np.ones((4, 2, 3)), np.ones((2, 1))), [[12.0], [12.0]])


def test_unbroadcast_to_a_number_and_identity_and_zero():
    got = unbroadcast(G23, 2.0)
    assert np.ndim(got) == 0 and got == 15.0 and not isinstance(got, np.ndarray)
    assert unbroadcast(G23, np.ones((2, 3))) is G23
    assert unbroadcast(None, np.ones(3)) is None
    assert unbroadcast(np.ones(3), np.ones(())).shape == ()


def test_unbroadcast_splits_a_concatenation():
    g = [1.0, 2.0, 3.0, 4.0, 5.0]
    assert unbroadcast(g, (0.0, 0.0), side=0) == (1.0, 2.0)
    assert unbroadcast(g, [0.0, 0.0, 0.0], side=1) == [3.0, 4.0, 5.0]


def test_accumulate_unbroadcast_adds_in_place():
    buffer = np.ones(3)
    out = accumulate_unbroadcast(buffer, G23, np.ones(3))
    assert out is buffer
    assert_close(out, [4.0, 6.0, 8.0])
    same = np.full(3, 2.0)
    assert accumulate_unbroadcast(out, same, np.ones(3)) is buffer
    assert_close(buffer, [6.0, 8.0, 10.0])
    assert_close(same, [2.0, 2.0, 2.0])
    assert_close(accumulate_unbroadcast(None, G23, np.ones((2, 1))), [[3.0], [12.0]])


# ---- reductions -----------------------------------------------------------------------
@pytest.mark.parametrize("n", [3, 2000], ids=["small", "large"])
def test_unreduce_everything(n):
    x = np.ones((2, n), dtype=np.float32)
    out = unreduce(np.float32(2.0), x)
    assert out.shape == (2, n) and out.dtype == np.float32 and np.all(out == 2.0)
    assert unreduce(2.0, x).dtype == np.float32


def test_unreduce_an_axis():
    x = np.ones((2, 3))
    assert_close(unreduce(np.array([1.0, 2.0]), x, axis=1), [[1, 1, 1], [2, 2, 2]])
    assert_close(unreduce(np.array([1.0, 2.0, 3.0]), x, axis=0), [[1, 2, 3], [1, 2, 3]])
    assert_close(unreduce(np.array([[1.0], [2.0]]), x, axis=1, keepdims=True),
                 [[1, 1, 1], [2, 2, 2]])


def test_reduction_size():
    x = np.ones((2, 3, 4))
    assert reduction_size(x) == 24 and reduction_size(x, 1) == 3
    assert reduction_size(x, (0, 2)) == 8 and reduction_size(2.0) == 1


# ---- indexing ---------------------------------------------------------------------------
def test_index_vjp_arrays():
    assert_close(index_vjp(5.0, np.ones(3), 1), [0.0, 5.0, 0.0])
    assert_close(index_vjp(np.array([1.0, 2.0]), np.ones((2, 2)), (slice(None), 0)),
                 [[1.0, 0.0], [2.0, 0.0]])
    assert_close(index_vjp(np.array([1.0, 2.0, 4.0]), np.ones(3), np.array([0, 0, 2])),
                 [3.0, 0.0, 4.0])
    assert index_vjp(np.float32(1.0), np.ones(2, dtype=np.float32), 0).dtype == np.float32


def test_index_vjp_sequences():
    assert index_vjp(5.0, [1.0, 2.0, 3.0], -1) == [None, None, 5.0]
    assert index_vjp([7.0, 8.0], (1.0, 2.0, 3.0), slice(1, None)) == (None, 7.0, 8.0)
    assert index_vjp([7.0, 8.0], [0.0] * 4, slice(None, None, 2)) == [7.0, None, 8.0, None]


# ---- matmul -----------------------------------------------------------------------------
SHAPES = [((2, 3), (3, 4)), ((2, 3), (3,)), ((3,), (3, 4)), ((3,), (3,)),
          ((5, 2, 3), (3, 4)), ((2, 3), (5, 3, 4)), ((5, 2, 3), (3,)), ((3,), (5, 3, 4)),
          ((5, 2, 3), (5, 3, 4)), ((1, 2, 3), (5, 3, 2))]


@pytest.mark.parametrize("a_shape, b_shape", SHAPES, ids=str)
def test_matmul_cotangents_match_finite_differences(a_shape, b_shape):
    r = rng("matmul", *a_shape, 0, *b_shape)
    a, b = r.normal(size=a_shape), r.normal(size=b_shape)
    g = r.normal(size=np.shape(a @ b))
    assert_close(matmul_lhs(g, a, b), numerical_vjp(np.matmul, [a, b], 0, g))
    assert_close(matmul_rhs(g, a, b), numerical_vjp(np.matmul, [a, b], 1, g))


@pytest.mark.parametrize("b_shape", [(3, 4), (3,)], ids=str)
def test_matmul_spread_is_matmul_of_a_filled_cotangent(b_shape):
    r = rng("spread", *b_shape)
    a, b = r.normal(size=(2, 3)), r.normal(size=b_shape)
    t = a @ b
    full = np.full(t.shape, 1.5)
    assert_close(matmul_lhs_spread(1.5, t, a, b), matmul_lhs(full, a, b))
    assert_close(matmul_rhs_spread(1.5, t, a, b), matmul_rhs(full, a, b))
    g = r.normal(size=t.shape)                   # not a scalar: the general path
    assert_close(matmul_lhs_spread(g, t, a, b), matmul_lhs(g, a, b))
    assert_close(matmul_rhs_spread(g, t, a, b), matmul_rhs(g, a, b))


# ---- shape changes and powers -----------------------------------------------------------
def test_transpose_and_reshape_undone():
    x = np.arange(24.0).reshape(2, 3, 4)
    assert_close(transpose_vjp(np.transpose(x)), x)
    assert_close(transpose_vjp(np.transpose(x, (1, 2, 0)), (1, 2, 0)), x)
    assert_close(reshape_vjp(x.reshape(6, 4), x), x)


def test_pow_exponent_vjp():
    assert pow_exponent_vjp(2.0, 8.0, 2.0, 3.0) == pytest.approx(2.0 * 8.0 * math.log(2.0))
    assert pow_exponent_vjp(2.0, 0.0, 0.0, 3.0) == 0.0
    x, y = np.array([0.0, 2.0, 3.0]), np.array([2.0, 2.0, 0.5])
    want = np.array([0.0, 4.0 * math.log(2.0), 3.0 ** 0.5 * math.log(3.0)])
    assert_close(pow_exponent_vjp(np.ones(3), x ** y, x, y), want)
    assert_close(pow_exponent_vjp(np.ones(3), x ** 2.0, x, 2.0), np.sum(x ** 2.0 * np.log(
        np.where(x > 0, x, 1.0))))
