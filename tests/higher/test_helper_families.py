"""Second derivatives through JVP helpers given reverse rules in session 38 (secorder,
tests/rules/second_order_missing.txt): hvp, hessian and grad of grad of a small user
function calling the public NumPy function, against central differences of grad
(tests/fd.py), one test per helper family."""
import math
from dataclasses import dataclass

import numpy as np
import pytest

from tests.fd import assert_close, numerical_jvp
from transform import grad, hessian, hvp, jvp
from transform.errors import TransformError

X = np.array([0.3, -1.2, 0.8, 2.1])
V = np.array([0.5, -0.25, 1.0, 0.75])
XM = np.array([[0.3, -1.2, 0.8], [2.1, 0.4, -0.6]])


def sinc_sum(x):
    return np.sum(np.sinc(x) * x)


def sinc_scalar(x):
    return np.sinc(x) * 2.0


def norm_vector(x):
    return np.linalg.vector_norm(x) ** 3


def norm_rows(x):
    return np.sum(np.linalg.vector_norm(x, axis=1) ** 2 * np.sin(x[:, 0]))


def norm_matrix(x):
    return np.linalg.matrix_norm(x) * np.sum(x)


def lgamma_scalar(x):
    return math.lgamma(x) * x + math.gamma(x)


def float_power_sum(x):
    return np.sum(np.float_power(x, 2.5) * x)


def average_rows(x):
    return np.sum(np.average(x * x, axis=1, weights=np.array([1.0, 2.0, 0.5])) ** 2)


def nanmean_rows(x):
    return np.sum(np.nanmean(np.where(x > 2.0, np.nan, x) ** 3, axis=0))


def pad_sum(x):
    return np.sum(np.pad(x, (1, 2), constant_values=0.5) ** 3 * np.arange(7.0))


def pad_ramp(x):
    return np.pad(x, (1, 2), mode="linear_ramp", end_values=5.0)


def pad_max(x):
    return np.pad(x, 2, mode="maximum")


def _check(f, x, v):
    """hvp along v and the hessian's columns against differences of grad(f)."""
    assert_close(hvp(f, (x,), (v,)), numerical_jvp(grad(f), [x], 0, v), 1e-5, 1e-7, "hvp")
    flat = np.eye(x.size)
    want = np.stack([numerical_jvp(grad(f), [x], 0, e.reshape(x.shape)) for e in flat], -1)
    assert_close(hessian(f)(x), want.reshape(x.shape + x.shape), 1e-5, 1e-7, "hessian")


def test_sinc_through_its_slope():
    _check(sinc_sum, X, V)
    _check(sinc_sum, np.array([0.0, 0.5, -1.5]), np.array([1.0, 0.3, -0.2]))  # s'(0) = 0
    for x in (0.37, -1.6):
        assert_close(grad(grad(sinc_scalar))(x), numerical_jvp(grad(sinc_scalar), [x], 0, 1.0),
                     1e-5, 1e-7, "grad of grad")


@pytest.mark.skipif(not hasattr(np.linalg, "vector_norm"), reason="NumPy 2.0+")
@pytest.mark.parametrize("f, x", [(norm_vector, X), (norm_rows, XM), (norm_matrix, XM)],
                         ids=["vector", "rows", "matrix"])
def test_vector_and_matrix_norms_through_their_slopes(f, x):
    _check(f, x, np.linspace(-0.5, 1.0, x.size).reshape(x.shape))


@pytest.mark.parametrize("x", [0.3, 2.6, 12.5, -1.4])
def test_lgamma_and_gamma_through_digamma(x):
    got = grad(grad(lgamma_scalar))(x)
    assert_close(got, numerical_jvp(grad(lgamma_scalar), [x], 0, 1.0), 1e-5, 1e-7, "grad of grad")


def test_float_power_through_its_dtype_cast():
    _check(float_power_sum, np.abs(X) + 0.2, V)


@pytest.mark.parametrize("f, x", [(average_rows, XM), (nanmean_rows, XM)],
                         ids=["average", "nanmean"])
def test_average_and_nanmean_through_weights_and_counts(f, x):
    _check(f, x, np.linspace(-0.5, 1.0, x.size).reshape(x.shape))


def test_pad_through_its_tangent_keywords():
    _check(pad_sum, X, V)


def test_pad_tangent_holds_end_values_and_refuses_picking_modes():
    """Session 38: forward mode's np.pad tangent kept end_values (linear_ramp ramped the
    tangent to 5) and padded the tangent's own maximum (maximum, minimum, median)."""
    assert_close(jvp(pad_ramp, (X,), (V,))[1], numerical_jvp(pad_ramp, [X], 0, V))
    with pytest.raises(TransformError, match="maximum"):
        jvp(pad_max, (X,), (V,))


@dataclass
class _GammaShape:
    shape: float

    def log_norm(self):
        return math.lgamma(self.shape) * 2.0 + self.shape ** 2


def _gamma_method(a):
    return _GammaShape(a).log_norm()


def test_lgamma_in_a_method_under_hvp():
    """A method calling math.lgamma: the alias check read digamma's source (`x += 1` on
    a float) as a write into the caller's data, at runtime/rules/math_module.py, though
    digamma is called through its rule (session 38)."""
    for route in ("auto", "reverse_over_forward", "forward_over_reverse"):
        got = hvp(_gamma_method, (2.1,), (1.0,), route=route)
        assert_close(got, numerical_jvp(grad(_gamma_method), [2.1], 0, 1.0), rtol=1e-6)
