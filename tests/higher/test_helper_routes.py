"""Second derivatives through JVP helpers taken off tests/rules/second_order_missing.txt
in session 39 (secorder2): hvp along a direction (each route: "auto",
"forward_over_reverse", "reverse_over_forward"), the hessian's columns, and grad of grad
of a scalar case, against central differences of grad (tests/fd.py). A route that still
refuses must do so at the user's line (a TransformError naming this file)."""
import cmath
import math

import numpy as np
import pytest

from tests.fd import assert_close
from tests.higher.route_checks import check_grad_of_grad, check_hessian, check_routes
from transform import hvp
from transform.errors import TransformError

try:                        # SciPy is optional: its cases are skipped without it
    from scipy import stats
except ImportError:
    stats = None

X = np.array([0.3, -1.2, 0.8, 2.1])
V = np.array([0.5, -0.25, 1.0, 0.75])
_routes, _hessian, _grad_of_grad = check_routes, check_hessian, check_grad_of_grad


def prod_f(x):
    return math.prod(x) * x[0]


def prod_scalar(s):
    return math.prod([s, 2.0 * s, s + 1.0], start=s)


def test_math_prod():
    _routes(prod_f, X, V)
    _hessian(prod_f, X)
    _grad_of_grad(prod_scalar, 0.7)


def average_f(x):
    return np.average(x ** 2, weights=np.abs(x) + 1.0) * x[0]


def average_scalar(s):
    return np.average(np.array([1.0, -2.0, 0.5]), weights=np.array([s, s * s, 1.0]))


def test_average_weights():
    _routes(average_f, X, V, refused=("forward_over_reverse",))
    _hessian(average_f, X)
    _grad_of_grad(average_scalar, 0.7)


XM = np.array([[0.3, -1.2, 0.8], [2.1, 0.4, -0.6]])


def quantile_rows(x):
    return np.sum(np.quantile(x ** 3, [0.3, 0.8], axis=1) ** 2) + np.median(x * x[0, 0])


def percentile_cols(x):
    return np.sum(np.nanpercentile(np.sin(x), 40, axis=0) * x[1]) * np.nanmedian(x ** 2)


def quantile_scalar(s):
    return np.quantile(np.array([1.0, s, s ** 3, -0.5]), 0.4) ** 2


def quantile_moving_q(x):
    return np.quantile(x, np.abs(x[0]) / 4)


@pytest.mark.parametrize("f", [quantile_rows, percentile_cols], ids=["quantile", "nan"])
def test_quantiles(f):
    _routes(f, XM, np.linspace(-0.5, 1.0, XM.size).reshape(XM.shape))
    _hessian(f, XM)


def test_quantile_scalar_and_a_moving_q():
    """(A moving q: quantile_q_jvp's rule since session 40, secorder3; reverse mode's
    quantile_vjp has no rule in q, so forward over reverse refuses it.)"""
    _grad_of_grad(quantile_scalar, 0.7)
    _routes(quantile_moving_q, X, V, refused=("forward_over_reverse",))


def gradient_rows(x):
    rows, cols = np.gradient(x * x[0, 0], 0.5, 2.0)
    return np.sum(rows ** 2 * cols) + np.sum(np.gradient(np.sin(x), axis=1, edge_order=2) ** 3)


def gradient_scalar(s):
    return np.sum(np.gradient(np.array([1.0, s, s ** 3, -0.5])) ** 2)


def gradient_moving_spacing(x):
    return np.sum(np.gradient(x ** 2, x[0] + 2.0) ** 2)


def test_gradient():
    _routes(gradient_rows, XM, np.linspace(-0.5, 1.0, XM.size).reshape(XM.shape))
    _hessian(gradient_rows, XM)
    _grad_of_grad(gradient_scalar, 0.7)


def test_gradient_in_a_moving_spacing_is_refused_at_the_users_line():
    with pytest.raises(TransformError, match=__file__.rsplit("/", 1)[-1]):
        hvp(gradient_moving_spacing, (X,), (V,), route="reverse_over_forward")


KNOTS = np.array([-2.0, -0.5, 0.5, 1.0, 3.0])


def interp_in_x_and_fp(x):
    values = np.array([1.0, 2.0, 0.5, 4.0, -1.0]) * np.cos(x[1])
    return np.sum(np.interp(x * x[0], KNOTS, values) * x) + np.interp(x[3], KNOTS, values) ** 2


def interp_scalar(s):
    return np.interp(s * s, KNOTS, np.array([1.0, 2.0, 0.5, 4.0, -1.0]) * s) * s


def interp_in_x(x):
    return np.sum(np.interp(x * x[0], KNOTS, np.array([1.0, 2.0, 0.5, 4.0, -1.0])) * x)


def test_interp():
    """(hvp forward over reverse has no tangent of interp_fp_vjp, fp's cotangent)"""
    _routes(interp_in_x, X, V)
    _routes(interp_in_x_and_fp, X, V, refused=("forward_over_reverse",))
    _hessian(interp_in_x_and_fp, X)
    _grad_of_grad(interp_scalar, 0.8)


def cov_two(x):
    data = np.stack([x, np.sin(x)], axis=1)
    return np.sum(np.cov(data, x ** 2, rowvar=False) ** 2) + np.cov(x * x[0], bias=True)


def corrcoef_two(x):
    return np.sum(np.corrcoef(np.stack([x, x ** 3]), np.cos(x)) ** 2)


def cov_scalar(s):
    return np.cov(np.array([1.0, s, s ** 3, -0.5])) * s


@pytest.mark.parametrize("f", [cov_two, corrcoef_two], ids=["cov", "corrcoef"])
def test_cov_and_corrcoef(f):
    """(hvp forward over reverse has no tangent of cov_vjp, np.cov's cotangent)"""
    _routes(f, X, V, refused=("forward_over_reverse",))
    _hessian(f, X)


def test_cov_scalar():
    _grad_of_grad(cov_scalar, 0.7)


def cond_orders(x):
    square = np.reshape(x, (2, 2)) + 3.0 * np.eye(2)
    return np.linalg.cond(square) * x[1] + np.linalg.cond(square, "fro") ** 2 + \
        np.linalg.cond(square, -2)


def cond_scalar(s):
    return np.linalg.cond(np.array([[2.0 + s, s * s], [0.5, 1.0 - s]]))


def test_cond():
    _routes(cond_orders, X, V)
    _hessian(cond_orders, X)
    _grad_of_grad(cond_scalar, 0.3)


def zscore_rows(x):
    return np.sum(stats.zscore(x * x[0, 0], axis=1, ddof=1) ** 3 * x) + \
        np.sum(stats.zscore(np.sin(x), axis=None)[0] ** 2)


def zscore_scalar(s):
    return stats.zscore(np.array([1.0, s, s ** 3, -0.5]))[1] ** 2


def test_zscore():
    if stats is None:
        pytest.skip("SciPy is optional")
    x = np.concatenate([XM, XM[:, ::-1] ** 2], axis=1)
    _routes(zscore_rows, x, np.linspace(-0.5, 1.0, x.size).reshape(x.shape))
    _hessian(zscore_rows, x)
    _grad_of_grad(zscore_scalar, 0.7)


def phase_f(x):
    return cmath.phase(complex(x[0], x[1] * x[2])) * x[3] + cmath.phase(complex(x[0] ** 2, x[3])) ** 2


def angle_real(x):
    return np.sum(np.angle(x * x[0], deg=True) * x) + np.sum(np.angle(x) ** 2)


def phase_scalar(s):
    return cmath.phase(complex(s * s, s - 2.0)) * s


def test_phase_and_angle():
    """(hvp forward over reverse of cmath.phase: the complex value's tangent refused)"""
    _routes(phase_f, X, V, refused=("forward_over_reverse",))
    _hessian(phase_f, X)
    _routes(angle_real, X, V)
    _grad_of_grad(phase_scalar, 0.7)


def _complex_directions(value):
    """(real part, imaginary part) unit directions of each entry of a complex array."""
    for k in range(value.size):
        e = np.zeros(value.size, complex)
        e[k] = 1
        yield k, e.reshape(value.shape), 1j * e.reshape(value.shape)


@pytest.mark.parametrize("helper", ["angle_jvp", "angle_vjp"])
@pytest.mark.parametrize("deg", [False, True])
def test_angle_helpers_complex_cotangents(helper, deg):
    """The angle helpers' rules for complex values: the cotangent dL/da - i dL/db
    (docs/complex.md) of L = Re(sum(H * out)) against central differences."""
    from runtime import lookup, unthunk
    from runtime.rules import complex_helpers
    fn = getattr(complex_helpers, helper)
    z = np.array([0.3 - 1.2j, 2.0 + 0.5j, -0.7 + 0.1j])
    first = np.array([0.4 + 0.9j, -1.1 - 0.2j, 0.6 + 0.0j]) if helper == "angle_jvp" else \
        np.array([0.4, -1.1, 0.6])
    out, pullback = lookup(fn).rrule(first, z, deg)
    H = np.array([1.3 - 0.4j, -0.2 + 0.8j, 0.5 + 0.5j]) if np.iscomplexobj(out) else \
        np.array([1.3, -0.2, 0.5])
    cots = [np.asarray(unthunk(c)) for c in pullback(H)[:2]]
    for part, value in enumerate((first, z)):
        def loss(v):
            args = [first, z]
            args[part] = v
            return np.real(np.sum(H * fn(*args, deg)))
        for k, re, im in _complex_directions(value):
            d_re = (loss(value + 1e-6 * re) - loss(value - 1e-6 * re)) / 2e-6
            d_im = (loss(value + 1e-6 * im) - loss(value - 1e-6 * im)) / 2e-6 \
                if np.iscomplexobj(value) else 0.0
            got = cots[part].ravel()[k]      # (assert_close reads real values: both parts)
            assert_close(np.real(got), d_re, 1e-6, 1e-8, f"part {part}, real")
            assert_close(np.imag(got), -d_im, 1e-6, 1e-8, f"part {part}, imaginary")


def summaries(x):
    p = np.exp(x)
    return stats.skew(x ** 3) * x[0] + stats.kurtosis(x * x[1], bias=False) + \
        stats.moment(x * x[0], order=3) + stats.sem(x ** 2) * stats.variation(p, ddof=1) + \
        stats.gmean(p) * x[2] + stats.hmean(p, weights=np.array([1.0, 2.0, 0.5, 1.5, 1.0]))


def summaries_rows(x):
    return np.sum(stats.skew(x, axis=1, keepdims=True) ** 2) + \
        np.sum(stats.moment(x, order=2, axis=None) * x)


def skew_scalar(s):
    return stats.skew(np.array([1.0, s, s ** 3, -0.5])) * s


def test_scipy_summaries():
    if stats is None:
        pytest.skip("SciPy is optional")
    x5 = np.append(X, 0.4)
    _routes(summaries, x5, np.append(V, -0.6))
    _hessian(summaries, x5)
    x = np.concatenate([XM, XM[:, ::-1] ** 2], axis=1)
    _routes(summaries_rows, x, np.linspace(-0.5, 1.0, x.size).reshape(x.shape))
    _grad_of_grad(skew_scalar, 0.7)


def entropies(x):
    p = np.exp(x)
    return stats.entropy(p) * x[1] + stats.entropy(p, np.exp(np.sin(x)), base=2.0)


def kl_rows(x):
    p = np.reshape(np.exp(x), (2, 2))
    return np.sum(stats.entropy(p, p[::-1] ** 2, axis=1) ** 2)


def entropy_scalar(s):
    return stats.entropy(np.array([1.0, s * s, 2.0 + s]), np.array([0.5, 1.0, s + 1.0]))


@pytest.mark.parametrize("f", [entropies, kl_rows], ids=["entropy", "kl"])
def test_entropy(f):
    if stats is None:
        pytest.skip("SciPy is optional")
    _routes(f, X, V)
    _hessian(f, X)


def test_entropy_scalar():
    if stats is None:
        pytest.skip("SciPy is optional")
    _grad_of_grad(entropy_scalar, 0.7)
