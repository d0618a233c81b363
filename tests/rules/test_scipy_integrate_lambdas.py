"""A lambda handed to odeint/solve_ivp inside a deferred cotangent (flat and nested
policies): the thunk captured the lambda's own parameters as free names (NameError)."""
import numpy as np
import pytest

integrate = pytest.importorskip("scipy.integrate")

from transform import grad  # noqa: E402
from tests.fd import assert_close, numerical_grad  # noqa: E402
from tests.gradcheck import POLICIES  # noqa: E402

T = np.linspace(0.0, 2.0, 5)


def decay(y, a):
    return -a * y


def ode_lambda(k):
    return np.sum(integrate.odeint(lambda y, t, a: decay(y, a), np.array([1.0, 2.0]), T,
                                   args=(k,), rtol=1e-10, atol=1e-10))


def ivp_lambda(k):
    sol = integrate.solve_ivp(lambda t, y, a: -a * y, (0.0, 2.0), np.array([1.0, 2.0]),
                              t_eval=T, args=(k,), rtol=1e-10, atol=1e-10)
    return np.sum(sol.y)


def ivp_lambda_y0(y0):
    sol = integrate.solve_ivp(lambda t, y: decay(y, 0.7), (0.0, 2.0), y0, t_eval=T,
                              rtol=1e-10, atol=1e-10)
    return np.sum(sol.y ** 2)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn, at", [(ode_lambda, 0.7), (ivp_lambda, 0.7),
                                    (ivp_lambda_y0, np.array([1.0, 2.0]))])
def test_lambda_right_hand_side(fn, at, policy):
    assert_close(grad(fn, policy=policy)(at), numerical_grad(fn, (at,), 0), rtol=1e-4)


def rhs_k(t, y, k):
    return -k * y


def jac_k(t, y, k):
    return -k * np.eye(2)


def ivp_with_jacobian(k):
    sol = integrate.solve_ivp(rhs_k, (0.0, 2.0), np.array([1.0, 2.0]), method="BDF",
                              jac=jac_k, t_eval=np.linspace(0.0, 2.0, 3), args=(k,),
                              rtol=1e-10, atol=1e-10)
    return np.sum(sol.y)


def test_a_user_jacobian_is_left_to_the_primal_solve():
    """jac= is the primal system's Jacobian; the backward solve of the augmented system
    once received it too (a shape error or a missing argument)."""
    assert_close(grad(ivp_with_jacobian)(0.7), numerical_grad(ivp_with_jacobian, (0.7,), 0),
                 rtol=1e-4)
