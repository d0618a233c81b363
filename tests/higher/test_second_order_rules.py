"""Second derivatives through JVP helpers taken off tests/rules/second_order_missing.txt
in session 40 (secorder3): hvp along a direction (each route: "auto",
"forward_over_reverse", "reverse_over_forward"), the hessian's columns, and grad of grad
of a scalar case, against central differences of grad (tests/fd.py)."""
import math

import numpy as np
import pytest

from tests.fd import assert_close, numerical_jvp
from tests.higher.route_checks import check_grad_of_grad, check_hessian, check_routes
from transform import grad

X = np.array([0.3, -1.2, 0.8, 2.1])
V = np.array([0.5, -0.25, 1.0, 0.75])
_routes, _hessian, _grad_of_grad = check_routes, check_hessian, check_grad_of_grad


# ufunc.outer: the ufunc's own templates over operands spread to the outer shape
# (runtime/rules/ufunc_outer.py), both operands moving, a 2-D operand, a scalar
def outer_kernels(x):
    d = np.subtract.outer(x, x[:3] * 0.5)
    k = np.sum(np.exp(-d ** 2)) + np.sum(np.divide.outer(x ** 2, x[1:] + 3.0))
    p = np.power.outer(np.abs(x) + 0.5, x[:2]) + np.float_power.outer(x[:2] ** 2 + 1.0, x).T
    return k + np.sum(p * 0.3) + np.sum(np.arctan2.outer(x, x[::-1] + 0.1) ** 2)


def outer_smooth(x):
    m = x.reshape(2, 2)
    h = np.sum(np.hypot.outer(m, x[:3]) ** 2) + np.sum(np.logaddexp.outer(x, m) * x[2])
    return h + np.sum(np.maximum.outer(x, x[1:] * 0.7) * x[0])


def outer_scalar(s):
    return np.sum(np.subtract.outer(s, np.array([0.5, s ** 2])) ** 3) + \
        np.sum(np.divide.outer(np.array([s, 2.0]), s + 2.0) ** 2)


@pytest.mark.parametrize("f", [outer_kernels, outer_smooth], ids=["kernels", "smooth"])
def test_ufunc_outer(f):
    _routes(f, X, V)
    _hessian(f, X)


def test_ufunc_outer_scalar():
    _grad_of_grad(outer_scalar, 0.7)


# np.r_ and np.c_: their tangent (index_trick_jvp) and cotangent (index_trick_vjp) are each
# other's transposes (runtime/rules/indexing_second.py); items, constants and ranges
def index_tricks(x):
    return np.sum(np.r_[x, 0.5, x[:2] ** 2] ** 3) + np.sum(np.r_[np.sin(x), 0:3] * x[0]) + \
        np.sum(np.c_[x, x ** 2, np.ones(4)] ** 2 * x[:, None])


def index_trick_scalar(s):
    return np.sum(np.r_[s, 2.0, s ** 2, 0:2] ** 2 * s)


def test_index_tricks():
    _routes(index_tricks, X, V)
    _hessian(index_tricks, X)
    _grad_of_grad(index_trick_scalar, 0.7)


# np.maximum/minimum/multiply.reduceat: segment_jvp differentiated from its source
# (prod_vjp's and tie_share's slopes), segment_vjp in forward mode (hvp forward over
# reverse); an empty segment (a repeated index), along an axis
XR = np.array([0.3, -1.2, 0.8, 2.1, 0.5])
VR = np.array([0.5, -0.25, 1.0, 0.75, -0.3])


def segments(x):
    return np.sum(np.maximum.reduceat(x * x, [0, 2]) ** 2) + \
        np.sum(np.multiply.reduceat(x, [0, 3, 3]) * x[:3]) + \
        np.sum(np.minimum.reduceat(np.sin(x), [1, 4])) + \
        np.sum(np.multiply.reduceat(np.c_[x, x ** 2], [0, 2], axis=0) ** 2)


def test_reduceat():
    _routes(segments, XR, VR)
    _hessian(segments, XR)


# np.quantile's tangent from q (quantile_q_jvp: t times the slope (s[hi] - s[lo]) (n - 1)),
# and quantile_jvp's own slope in q: q moving with a; forward over reverse refuses
# (reverse mode's quantile_vjp has no rule in q)
XM = np.array([[0.3, -1.2, 0.8], [2.1, 0.4, -0.6]])
VM = np.linspace(-0.5, 1.0, 6).reshape(2, 3)


def quantile_moving_q(x):
    q = np.array([0.2, 0.55]) + 0.1 * np.tanh(x[0, :2])
    return np.sum(np.quantile(x * x[1, 2], q, axis=1) ** 2) + np.percentile(x ** 3, 60 + x[0, 0])


def nanquantile_moving_q(x):
    y = np.where(np.arange(6).reshape(2, 3) == 4, np.nan, np.sin(x))
    return np.sum(np.nanquantile(y, 0.5 + 0.2 * np.tanh(x[1]), axis=0) * x[0])


def quantile_q_scalar(s):
    return np.quantile(np.array([1.0, s, s ** 3, -0.5]), 0.3 + 0.1 * s) ** 2


@pytest.mark.parametrize("f", [quantile_moving_q, nanquantile_moving_q], ids=["q", "nan"])
def test_quantile_moving_q(f):
    _routes(f, XM, VM, refused=("forward_over_reverse",))
    _hessian(f, XM)


def test_quantile_moving_q_scalar():
    _grad_of_grad(quantile_q_scalar, 0.7)


# third order, grad of grad of grad against differences of grad of grad: the JVPs of
# the second-order rules of np.linalg.norm (norm_vjp_jvp), np.prod (prod_vjp_jvp, a zero
# entry, along an axis, keepdims) and powers with both sides moving (pow_exponent_x_jvp,
# power_base_second), differentiated from their source (transform/generated_calls.py)
def norm_cubed(s):
    v = np.array([s, 2.0 * s ** 2, 1.0 - s])
    return np.linalg.norm(v) ** 2 * s + np.linalg.vector_norm(v) * s


def norm_rows(s):
    m = np.array([[s, 2.0], [s ** 2, 1.0 - s]])
    return np.linalg.norm(m, axis=1)[0] * s + np.linalg.matrix_norm(m * s)


def prods(s):
    m = np.array([[s, 0.0, 2.0], [s * s, 1.5, s - 2.0]])
    return np.sum(np.prod(m, axis=1) * s) + np.prod(np.array([s, s + 1.0, 2.0 * s - 0.3])) + \
        np.sum(np.prod(m[:, :2], axis=0, keepdims=True)) ** 2


def powers(s):
    x, y = np.array([s + 1.0, 2.0, 0.5 * s]), np.array([2.5 * s, s, 3.0])
    return np.sum(np.power(x, y)) + (s + 1.5) ** (s * 0.5) * s + \
        np.sum(np.float_power(x[:2], y[:2] * s))


M0 = np.array([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]])


def cholesky_cubed(s):          # (cholesky_jvp_jvp: the factor's tangent's own tangent)
    return np.sum(np.linalg.cholesky(M0 + s * np.diag([1.0, s, 2.0]) + s * s) ** 3) * s + \
        np.sum(np.linalg.cholesky(M0 * s, upper=True)[0] ** 3)


def gammas(s):                  # (trigamma: digamma's slope; its reflection below 0.5)
    return math.lgamma(s * 2.0 + 0.3) * s + math.gamma(s + 1.0) + math.lgamma(0.2 + s * s)


@pytest.mark.parametrize("f", [norm_cubed, norm_rows, prods, powers, cholesky_cubed, gammas],
                         ids=["norm", "norm_axis", "prod", "power", "cholesky", "gamma"])
def test_third_order(f):
    for s in (0.1, 0.7, 1.3):
        assert_close(grad(grad(grad(f)))(s), numerical_jvp(grad(grad(f)), [s], 0, 1.0),
                     1e-5, 1e-7, "grad of grad of grad")
