"""Every straight-line rule against central finite differences (float64),
for every argument, including broadcasting (gradients summed back to the
argument's shape). Non-scalar outputs go through vjp, scalar ones through grad.
Inputs are read-only and must be unchanged afterwards (see tests/gradcheck.py)."""
import math

import numpy as np
import pytest

from tests.gradcheck import check_grad, check_vjp
from transform import grad


def rng(seed=0):
    return np.random.default_rng(seed)


def pos(*shape, seed=0):
    """Positive values away from zero (log, sqrt, division, powers)."""
    return rng(seed).uniform(0.5, 2.0, size=shape)


def arr(*shape, seed=0):
    return rng(seed).normal(size=shape)


# ---------------------------------------------------------------- operators
def op_add(x, y):
    return x + y


def op_sub(x, y):
    return x - y


def op_mul(x, y):
    return x * y


def op_div(x, y):
    return x / y


def op_pow(x, y):
    return x ** y


def op_pow_const(x):
    return x ** 3


def op_pow_half(x):
    return x ** 0.5


def op_rpow_const(x):
    return 2.0 ** x


def op_matmul(a, b):
    return a @ b


def op_neg(x):
    return -x


def op_neg_sum(x):
    return np.sum(-x)


def op_const_left(x):
    return 3.0 - x / 2.0 + 1.5 * x


def op_reuse(x):
    return x * x + x / (x + 3.0)


BINARY_SHAPES = [
    ("scalar-scalar", lambda s: 1.3, lambda s: 0.7),
    ("array-array", lambda s: pos(3, 4, seed=s), lambda s: pos(3, 4, seed=s + 1)),
    ("array-scalar", lambda s: pos(3, 4, seed=s), lambda s: 1.7),
    ("scalar-array", lambda s: 1.7, lambda s: pos(3, 4, seed=s)),
    ("matrix-row", lambda s: pos(3, 4, seed=s), lambda s: pos(4, seed=s + 1)),
    ("row-matrix", lambda s: pos(4, seed=s), lambda s: pos(3, 4, seed=s + 1)),
    ("col-row", lambda s: pos(3, 1, seed=s), lambda s: pos(1, 4, seed=s + 1)),
    ("3d-col", lambda s: pos(2, 3, 4, seed=s), lambda s: pos(3, 1, seed=s + 1)),
    ("0d-array", lambda s: np.array(1.2), lambda s: pos(2, 3, seed=s)),
    ("keepdims-style", lambda s: pos(2, 1, 4, seed=s), lambda s: pos(2, 3, 1, seed=s + 1)),
]


@pytest.mark.parametrize("fn", [op_add, op_sub, op_mul, op_div, op_pow],
                         ids=lambda f: f.__name__)
@pytest.mark.parametrize("case", BINARY_SHAPES, ids=lambda c: c[0])
def test_binary_operator_vjp_every_argument(fn, case):
    _, make_x, make_y = case
    check_vjp(fn, [make_x(1), make_y(2)])


@pytest.mark.parametrize("fn", [op_add, op_sub, op_mul, op_div, op_pow],
                         ids=lambda f: f.__name__)
def test_binary_operator_scalar_grad_is_float(fn):
    dx, dy = check_grad(fn, [1.3, 0.7])
    assert type(dx) is float and type(dy) is float


@pytest.mark.parametrize("fn", [op_pow_const, op_pow_half, op_rpow_const, op_neg,
                                op_const_left, op_reuse], ids=lambda f: f.__name__)
@pytest.mark.parametrize("make", [lambda: 1.3, lambda: pos(3, 2)], ids=["scalar", "array"])
def test_unary_operator_forms(fn, make):
    check_vjp(fn, [make()])


def test_unary_minus_through_grad():
    check_grad(op_neg_sum, [arr(4)])


MATMUL_SHAPES = [
    ("mat-vec", (3, 4), (4,)),
    ("vec-mat", (4,), (4, 3)),
    ("mat-mat", (3, 4), (4, 2)),
    ("vec-vec", (4,), (4,)),
    ("batch-mat", (2, 3, 4), (4, 5)),
    ("batch-batch-broadcast", (2, 3, 4), (1, 4, 5)),
    ("mat-batch", (3, 4), (2, 4, 5)),
]


@pytest.mark.parametrize("case", MATMUL_SHAPES, ids=lambda c: c[0])
def test_matmul_operator(case):
    _, sa, sb = case
    check_vjp(op_matmul, [arr(*sa, seed=1), arr(*sb, seed=2)])


# ---------------------------------------------------------------- math module
def m_sin(x):
    return math.sin(x)


def m_cos(x):
    return math.cos(x)


def m_tan(x):
    return math.tan(x)


def m_exp(x):
    return math.exp(x)


def m_log(x):
    return math.log(x)


def m_sqrt(x):
    return math.sqrt(x)


def m_tanh(x):
    return math.tanh(x)


def m_pow(x, y):
    return math.pow(x, y)


def m_fabs(x):
    return math.fabs(x)


def b_abs(x):
    return abs(x)


def b_float(x):
    return float(x) * 3.0


def b_float_of_array(x):
    return float(np.sum(x * x))


def m_composite(x, y):
    return math.exp(math.sin(x) * y) + math.sqrt(x * x + y * y) - math.log(1.0 + y * y)


@pytest.mark.parametrize("fn", [m_sin, m_cos, m_tan, m_exp, m_log, m_sqrt, m_tanh, m_fabs,
                                b_abs, b_float], ids=lambda f: f.__name__)
@pytest.mark.parametrize("x", [0.7, 1.9])
def test_math_unary(fn, x):
    (dx,) = check_grad(fn, [x])
    assert type(dx) is float


@pytest.mark.parametrize("fn", [m_fabs, b_abs], ids=lambda f: f.__name__)
def test_abs_of_negative_argument(fn):
    check_grad(fn, [-0.8])


@pytest.mark.parametrize("x,y", [(1.5, 2.0), (0.7, 3.3), (2.5, -1.2)])
def test_math_pow_both_arguments(x, y):
    check_grad(m_pow, [x, y])


def test_math_composite():
    check_grad(m_composite, [0.4, 1.1])


def test_builtin_float_of_array_sum():
    check_grad(b_float_of_array, [arr(3)])


def test_builtin_abs_of_array():
    check_vjp(b_abs, [arr(3, 4)])


# ---------------------------------------------------------------- numpy elementwise
def np_sin(x):
    return np.sin(x)


def np_cos(x):
    return np.cos(x)


def np_tan(x):
    return np.tan(x)


def np_exp(x):
    return np.exp(x)


def np_log(x):
    return np.log(x)


def np_sqrt(x):
    return np.sqrt(x)


def np_tanh(x):
    return np.tanh(x)


def np_square(x):
    return np.square(x)


def np_abs(x):
    return np.abs(x)


NP_UNARY = [np_sin, np_cos, np_tan, np_exp, np_log, np_sqrt, np_tanh, np_square, np_abs]


@pytest.mark.parametrize("fn", NP_UNARY, ids=lambda f: f.__name__)
def test_numpy_unary_on_array(fn):
    x = rng(3).uniform(0.3, 1.3, size=(3, 4))
    if fn is np_abs:
        x = x * np.array([1, -1, 1, -1])
    check_vjp(fn, [x])


@pytest.mark.parametrize("fn", NP_UNARY, ids=lambda f: f.__name__)
def test_numpy_unary_on_python_float(fn):
    check_vjp(fn, [0.8])


def np_maximum(x, y):
    return np.maximum(x, y)


def np_minimum(x, y):
    return np.minimum(x, y)


def _no_ties(shape_x, shape_y, seed):
    x = arr(*shape_x, seed=seed) if shape_x else 0.15
    y = arr(*shape_y, seed=seed + 7) if shape_y else -0.35
    bx, by = np.broadcast_arrays(np.asarray(x), np.asarray(y))
    assert np.min(np.abs(bx - by)) > 1e-3
    return x, y


@pytest.mark.parametrize("fn", [np_maximum, np_minimum], ids=lambda f: f.__name__)
@pytest.mark.parametrize("shapes", [((3, 4), (3, 4)), ((3, 4), (4,)), ((3, 1), (1, 4)),
                                    ((3, 4), ()), ((), (5,))], ids=str)
def test_maximum_minimum_broadcasting(fn, shapes):
    x, y = _no_ties(*shapes, seed=11)
    check_vjp(fn, [x, y])


def np_max_with_constant(x):
    return np.sum(np.maximum(x, 0.0))


def test_maximum_against_constant_relu():
    check_grad(np_max_with_constant, [np.array([-1.0, 0.5, 2.0, -0.3])])


# ---------------------------------------------------------------- reductions
def sum_all(x):
    return np.sum(x)


def sum_axis0(x):
    return np.sum(x, axis=0)


def sum_axis1(x):
    return np.sum(x, axis=1)


def sum_axis_neg(x):
    return np.sum(x, axis=-1)


def sum_axis0_keepdims(x):
    return np.sum(x, axis=0, keepdims=True)


def sum_axis1_keepdims(x):
    return np.sum(x, axis=1, keepdims=True)


def sum_axis_tuple(x):
    return np.sum(x, axis=(0, 2))


def sum_positional_axis(x):
    return np.sum(x, 1)


def mean_all(x):
    return np.mean(x)


def mean_axis0(x):
    return np.mean(x, axis=0)


def mean_axis1_keepdims(x):
    return np.mean(x, axis=1, keepdims=True)


def mean_axis_tuple(x):
    return np.mean(x, axis=(0, 2))


def keepdims_broadcast_back(x):
    return x - np.mean(x, axis=1, keepdims=True)


REDUCTIONS_2D = [sum_all, sum_axis0, sum_axis1, sum_axis_neg, sum_axis0_keepdims,
                 sum_axis1_keepdims, sum_positional_axis, mean_all, mean_axis0,
                 mean_axis1_keepdims, keepdims_broadcast_back]


@pytest.mark.parametrize("fn", REDUCTIONS_2D, ids=lambda f: f.__name__)
def test_reductions_2d(fn):
    check_vjp(fn, [arr(3, 4)])


@pytest.mark.parametrize("fn", [sum_all, sum_axis1, sum_axis_tuple, mean_axis_tuple,
                                mean_axis1_keepdims], ids=lambda f: f.__name__)
def test_reductions_3d(fn):
    check_vjp(fn, [arr(2, 3, 4)])


def test_sum_through_grad_gives_array():
    (dx,) = check_grad(sum_all, [arr(2, 5)])
    np.testing.assert_array_equal(dx, np.ones((2, 5)))


def test_mean_through_grad():
    check_grad(mean_all, [arr(4, 3)])


# ---------------------------------------------------------------- linear algebra
def np_dot(a, b):
    return np.dot(a, b)


def np_matmul(a, b):
    return np.matmul(a, b)


def np_outer(a, b):
    return np.outer(a, b)


@pytest.mark.parametrize("shapes", [((4,), (4,)), ((3, 4), (4,)), ((4,), (4, 3)),
                                    ((3, 4), (4, 2))], ids=str)
def test_np_dot(shapes):
    check_vjp(np_dot, [arr(*shapes[0], seed=1), arr(*shapes[1], seed=2)])


def test_np_dot_with_scalar():
    check_vjp(np_dot, [1.5, arr(3, seed=2)])


@pytest.mark.parametrize("case", MATMUL_SHAPES, ids=lambda c: c[0])
def test_np_matmul(case):
    _, sa, sb = case
    check_vjp(np_matmul, [arr(*sa, seed=3), arr(*sb, seed=4)])


@pytest.mark.parametrize("shapes", [((3,), (4,)), ((2,), (2,)), ((1,), (3,))], ids=str)
def test_np_outer(shapes):
    check_vjp(np_outer, [arr(*shapes[0], seed=5), arr(*shapes[1], seed=6)])


def norm_vec(x):
    return np.linalg.norm(x)


def norm_mat_default(x):
    return np.linalg.norm(x)


def norm_fro(x):
    return np.linalg.norm(x, "fro")


def norm_fro_kw(x):
    return np.linalg.norm(x, ord="fro")


def norm_vec_ord2(x):
    return np.linalg.norm(x, 2)


def norm_in_expression(x, y):
    return np.linalg.norm(x - y) ** 2 + np.linalg.norm(2.0 * x)


@pytest.mark.parametrize("fn,shape", [(norm_vec, (5,)), (norm_vec_ord2, (5,)),
                                      (norm_mat_default, (3, 4)), (norm_fro, (3, 4)),
                                      (norm_fro_kw, (2, 3))],
                         ids=lambda v: getattr(v, "__name__", str(v)))
def test_linalg_norm(fn, shape):
    check_grad(fn, [arr(*shape, seed=8)])


def test_linalg_norm_in_expression():
    check_grad(norm_in_expression, [arr(4, seed=1), arr(4, seed=2)])


# ---------------------------------------------------------------- shapes
def transpose_fn(x):
    return np.transpose(x)


def transpose_axes(x):
    return np.transpose(x, (1, 2, 0))


def dot_T(x):
    return x.T


def T_matmul(x, y):
    return x.T @ y


def reshape_fn(x):
    return np.reshape(x, (4, 3))


def reshape_minus_one(x):
    return np.reshape(x, (-1,))


def reshape_method(x):
    return x.reshape(2, 6)


def reshape_method_tuple(x):
    return x.reshape((6, 2))


@pytest.mark.parametrize("fn,shape", [(transpose_fn, (3, 4)), (transpose_fn, (2, 3, 4)),
                                      (transpose_axes, (2, 3, 4)), (dot_T, (3, 4)),
                                      (dot_T, (5,)), (reshape_fn, (3, 4)),
                                      (reshape_minus_one, (3, 4)), (reshape_method, (3, 4)),
                                      (reshape_method_tuple, (3, 4))],
                         ids=lambda v: getattr(v, "__name__", str(v)))
def test_shape_functions(fn, shape):
    check_vjp(fn, [arr(*shape, seed=9)])


def test_transpose_then_matmul():
    check_vjp(T_matmul, [arr(4, 3, seed=1), arr(4, 2, seed=2)])


# ---------------------------------------------------------------- indexing
def index_int(x):
    return x[1]


def index_negative(x):
    return x[-1]


def index_arg(x, i):
    return x[i] * 2.0


def index_slice(x):
    return x[1:3]


def index_slice_step(x):
    return x[::2]


def index_column(x):
    return x[:, 0]


def index_pair(x):
    return x[1, 2]


def index_rows_slice(x):
    return x[1:, :2]


def index_used_twice(x):
    return x[0] * x[1] + x[0]


def index_then_sum(x):
    return np.sum(x[1:3] ** 2) + x[0, 0]


@pytest.mark.parametrize("fn", [index_int, index_negative, index_slice, index_slice_step,
                                index_column, index_pair, index_rows_slice, index_used_twice],
                         ids=lambda f: f.__name__)
@pytest.mark.parametrize("shape", [(4, 3), (5, 3, 2)], ids=str)
def test_indexing(fn, shape):
    check_vjp(fn, [arr(*shape, seed=10)])


@pytest.mark.parametrize("i", [0, 2, -1])
def test_index_by_integer_argument(i):
    check_vjp(index_arg, [arr(4, seed=10), i], wrt=(0,))


def test_index_then_sum_grad():
    check_grad(index_then_sum, [arr(4, 3, seed=12)])


def test_index_gradient_is_one_hot():
    (dx,) = check_grad(index_int, [arr(5)])
    np.testing.assert_array_equal(dx, [0, 1, 0, 0, 0])


# ---------------------------------------------------------------- composites
def mlp_loss(W1, b1, W2, x):
    h = np.tanh(W1 @ x + b1)
    y = W2 @ h
    return np.sum(y ** 2) / 2.0 + 0.01 * np.sum(W1 * W1)


def softplus_mean(x, w):
    return np.mean(np.log(1.0 + np.exp(x * w)))


def quickstart_loss(W, b, x):
    h = np.tanh(W @ x + b)
    return np.sum(h ** 2) + 0.1 * np.sum(W * W)


def test_mlp_loss_all_parameters():
    check_grad(mlp_loss, [arr(5, 3, seed=1), arr(5, seed=2), arr(2, 5, seed=3),
                          arr(3, seed=4)])


def test_softplus_mean_broadcast_scalar_weight():
    check_grad(softplus_mean, [arr(6, seed=1), 0.7])


def test_quickstart_loss():
    check_grad(quickstart_loss, [arr(4, 3, seed=1), arr(4, seed=2), arr(3, seed=3)])


# ---------------------------------------------------------------- float32
def f32_loss(x, y):
    return np.sum(np.tanh(x) * y + np.exp(x) / (1 + y ** 2)) + np.mean(np.sqrt(np.abs(x) + 1))


def f32_matmul(W, v):
    return np.sum(np.maximum(W @ v, 0.1) ** 2) + np.linalg.norm(W)


def f32_broadcast(x, b):
    return np.sum(np.sin(x + b) * 2.0 - b)


def f32_index(x):
    return np.sum(x[1:, 0] * x[0, 1:]) + x[0, 0] ** 2


F32_CASES = [
    (f32_loss, lambda: [pos(3, 4, seed=1), pos(3, 4, seed=2)]),
    (f32_matmul, lambda: [arr(3, 4, seed=1), arr(4, seed=2)]),
    (f32_broadcast, lambda: [arr(3, 4, seed=1), arr(4, seed=2)]),
    (f32_index, lambda: [arr(3, 3, seed=1)]),
]


@pytest.mark.parametrize("case", F32_CASES, ids=lambda c: c[0].__name__)
def test_float32_in_float32_out(case):
    fn, make = case
    args64 = make()
    args32 = [a.astype(np.float32) for a in args64]
    for a in args32:
        a.setflags(write=False)
    wrt = tuple(range(len(args32)))
    grads32 = grad(fn, wrt=wrt)(*args32)
    grads64 = grad(fn, wrt=wrt)(*[a.astype(np.float64) for a in args32])
    for g32, g64, a in zip(grads32, grads64, args32):
        assert g32.dtype == np.float32
        assert g32.shape == a.shape
        np.testing.assert_allclose(g32, g64, rtol=2e-4, atol=2e-5)


@pytest.mark.parametrize("fn", NP_UNARY, ids=lambda f: f.__name__)
def test_float32_unary_vjp_stays_float32(fn):
    x = rng(3).uniform(0.3, 1.3, size=(4,)).astype(np.float32)
    x.setflags(write=False)
    from transform import vjp
    out, pb = vjp(fn, x)
    (dx,) = pb(np.ones_like(out))
    assert out.dtype == np.float32
    assert dx.dtype == np.float32


def f32_scalar_reduction(x):
    return np.sum(x * x)


def test_float32_scalar_output_grad_dtype():
    x = np.arange(1, 5, dtype=np.float32)
    g = grad(f32_scalar_reduction)(x)
    assert g.dtype == np.float32
    np.testing.assert_allclose(g, 2 * x)


# ---------------------------------------------------------------- read-only inputs
def writes_nothing(x, y):
    z = x * y
    z = z + x
    return np.sum(z * z) + np.sum(x[0])


def test_readonly_inputs_unchanged_and_not_aliased():
    x, y = arr(3, 2, seed=1), arr(3, 2, seed=2)
    x.setflags(write=False)
    y.setflags(write=False)
    x0, y0 = x.copy(), y.copy()
    dx, dy = grad(writes_nothing, wrt=(0, 1))(x, y)
    np.testing.assert_array_equal(x, x0)
    np.testing.assert_array_equal(y, y0)
    assert dx is not x and dy is not y
    assert not np.shares_memory(dx, x) and not np.shares_memory(dy, y)
    dx[...] = 0.0  # the gradient belongs to the caller


def identity(x):
    return x


def test_identity_gradient_is_a_fresh_writable_array():
    x = arr(4)
    x.setflags(write=False)
    out, pb = __import__("transform").vjp(identity, x)
    g = np.ones(4)
    g.setflags(write=False)
    (dx,) = pb(g)
    np.testing.assert_array_equal(dx, np.ones(4))


# ---------------------------------------------------------------- the same rules through grad
def g_add(x, y):
    return np.sum(x + y)


def g_sub(x, y):
    return np.sum(x - y)


def g_mul(x, y):
    return np.sum(x * y)


def g_div(x, y):
    return np.sum(x / y)


def g_pow(x, y):
    return np.sum(x ** y)


def g_matmul(a, b):
    return np.sum(a @ b)


def g_maximum(x, y):
    return np.sum(np.maximum(x, y) ** 2)


def g_minimum(x, y):
    return np.sum(np.minimum(x, y) ** 2)


@pytest.mark.parametrize("fn", [g_add, g_sub, g_mul, g_div, g_pow], ids=lambda f: f.__name__)
@pytest.mark.parametrize("case", BINARY_SHAPES, ids=lambda c: c[0])
def test_binary_operator_through_grad(fn, case):
    _, make_x, make_y = case
    check_grad(fn, [make_x(3), make_y(4)])


@pytest.mark.parametrize("case", MATMUL_SHAPES, ids=lambda c: c[0])
def test_matmul_through_grad(case):
    _, sa, sb = case
    check_grad(g_matmul, [arr(*sa, seed=5), arr(*sb, seed=6)])


@pytest.mark.parametrize("fn", [g_maximum, g_minimum], ids=lambda f: f.__name__)
@pytest.mark.parametrize("shapes", [((3, 4), (4,)), ((3, 1), (1, 4)), ((3, 4), ())], ids=str)
def test_maximum_minimum_through_grad(fn, shapes):
    x, y = _no_ties(*shapes, seed=13)
    check_grad(fn, [x, y])


def g_unary_all(x):
    return (np.sum(np.sin(x)) + np.sum(np.cos(x)) + np.sum(np.tan(x)) + np.sum(np.exp(x))
            + np.sum(np.log(x)) + np.sum(np.sqrt(x)) + np.sum(np.tanh(x))
            + np.sum(np.square(x)) + np.sum(np.abs(x - 0.8)))


def g_reductions(x):
    return (np.sum(np.sum(x, axis=0) ** 2) + np.sum(np.mean(x, axis=1, keepdims=True) * x)
            + np.mean(x) ** 2 + np.sum(np.sum(x, axis=-1, keepdims=True) ** 3))


def g_shapes(x, v):
    return (np.sum(np.dot(x, v) ** 2) + np.sum(np.outer(v, v) * (x.T @ x))
            + np.sum(np.reshape(x, (-1,)) * np.transpose(x).ravel())
            + np.linalg.norm(x) + np.linalg.norm(v) + x[1, 2] * x[:, 0][0] + np.sum(x[1:3]))


def test_numpy_unary_through_grad():
    check_grad(g_unary_all, [rng(21).uniform(0.3, 1.3, size=(3, 4))])


def test_reductions_through_grad():
    check_grad(g_reductions, [arr(3, 4, seed=22)])


def test_linalg_shapes_indexing_through_grad():
    check_grad(g_shapes, [arr(4, 3, seed=23), arr(3, seed=24)])
