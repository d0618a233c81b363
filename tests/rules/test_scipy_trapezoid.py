"""scipy.integrate.trapezoid has np.trapezoid's rule since session 40 (red41: an AUC by
SciPy's trapezoid in a pharmacokinetic fit was refused as a function with no rule): in
y, x and dx, in programs against central differences in float64 (grad, jvp, hvp)."""
import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad, numerical_jvp
from tests.gradcheck import rng
from transform import grad, hvp, jvp

integrate = pytest.importorskip("scipy.integrate")
T = np.linspace(0, 6, 7)


def bateman_auc(theta):
    ka, ke = np.exp(theta)
    c = 5 * ka / (ka - ke) * (np.exp(-ke * T) - np.exp(-ka * T))
    return integrate.trapezoid(c, T) + integrate.trapezoid(c ** 2, dx=0.5)


def moving_grid(x):
    return integrate.trapezoid(np.sin(x), np.cumsum(np.exp(x)))


def rows_and_spacing(x):
    return np.sum(integrate.trapezoid(np.outer(x, x[::-1]), dx=x[0] ** 2, axis=0) ** 2)


@pytest.mark.parametrize("fn, x", [(bateman_auc, np.log([1.1, 0.25])),
                                   (moving_grid, np.array([0.3, -0.2, 0.5, 0.1])),
                                   (rows_and_spacing, np.array([0.7, -0.4, 1.2]))],
                         ids=lambda v: getattr(v, "__name__", ""))
def test_against_finite_differences(fn, x):
    g = grad(fn)
    assert_close(g(x), numerical_grad(fn, (x,), 0), 1e-6, 1e-7, "grad")
    v = rng("scipy trapezoid", fn.__name__).normal(size=x.shape)
    assert_close(jvp(fn, (x,), (v,))[1], numerical_jvp(fn, (x,), 0, v), 1e-6, 1e-7, "jvp")
    assert_close(hvp(fn, (x,), (v,), route="reverse_over_forward"),
                 numerical_jvp(g, (x,), 0, v), 1e-5, 1e-6, "hvp")
