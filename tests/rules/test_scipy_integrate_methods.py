"""solve_ivp's adjoint rule with every method SciPy offers (explicit Runge-Kutta, implicit
Radau and BDF, LSODA's switching), in the initial state and the `args` parameters,
against central differences at tight tolerances (solver rtol = atol = 1e-11; the
adjoint is then within about 1e-9 relative), under every policy."""
import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_grad

integrate = pytest.importorskip("scipy.integrate")


def lotka(t, y, a, b):
    return np.array([a * y[0] - b * y[0] * y[1], -y[1] + b * y[0] * y[1]])


def loss(y0, a, b, method):
    sol = integrate.solve_ivp(lotka, (0.0, 1.5), y0, method=method,
                              t_eval=np.array([0.5, 1.0, 1.5]), args=(a, b), rtol=1e-11,
                              atol=1e-11)
    return np.sum(sol.y ** 2)


def odeint_loss(y0, a, b):
    ys = integrate.odeint(lotka, y0, np.array([0.0, 0.5, 1.0, 1.5]), args=(a, b), tfirst=True,
                          rtol=1e-12, atol=1e-12)
    return np.sum(ys ** 2)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("method", ["RK23", "RK45", "DOP853", "Radau", "BDF", "LSODA"])
def test_every_method_against_finite_differences(method, policy):
    check_grad(loss, [np.array([1.0, 0.5]), 1.1, 0.4], wrt=(0, 1, 2), policy=policy,
               rtol=1e-7, atol=1e-9, kwargs={"method": method})


@pytest.mark.parametrize("policy", POLICIES)
def test_odeint_at_tight_tolerances(policy):
    check_grad(odeint_loss, [np.array([1.0, 0.5]), 1.1, 0.4], wrt=(0, 1, 2), policy=policy,
               rtol=1e-7, atol=1e-9)
