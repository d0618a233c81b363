"""A lambda handed to odeint/solve_ivp whose parameters have the names of the enclosing
function's differentiated values (`lambda y, t, r, K: ...` with args=(r, K), session 32):
the lambda reads no enclosing name, but the check for values reaching `func` counted its
parameters and refused the program. A lambda that does read a differentiated value (a
free name or a default) is still refused."""
import numpy as np
import pytest

integrate = pytest.importorskip("scipy.integrate")

from tests.containers.check import line_of  # noqa: E402
from tests.fd import assert_close, numerical_grad  # noqa: E402
from tests.gradcheck import POLICIES  # noqa: E402
from transform import TransformError, grad  # noqa: E402

T = np.linspace(0.0, 2.0, 5)


def logistic_growth(r, K):
    sol = integrate.odeint(lambda y, t, r, K: r * y * (1 - y / K), 0.1, T, args=(r, K),
                           rtol=1e-12, atol=1e-12)
    return np.sum(sol[:, 0] ** 2)


def growth_times_k(r, K):
    sol = integrate.odeint(lambda y, t, r: r * y * (1 - y / 2.0), 0.1, T, args=(r,),
                           rtol=1e-12, atol=1e-12)
    return np.sum(sol[:, 0] ** 2) * K


def ivp_shadowing(r, K):
    sol = integrate.solve_ivp(lambda t, y, K: -K * y + r, (0.0, 2.0), np.array([1.0, 2.0]),
                              t_eval=T, args=(K,), rtol=1e-12, atol=1e-12)
    return np.sum(sol.y ** 2) * r


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn", [logistic_growth, growth_times_k],
                         ids=lambda fn: fn.__name__)
def test_a_parameter_named_like_a_differentiated_value(fn, policy):
    args = (1.2, 2.0)
    got = grad(fn, wrt=(0, 1), policy=policy)(*args)
    for k in range(2):
        assert_close(got[k], numerical_grad(fn, args, k), rtol=1e-5, atol=1e-7)


def free_capture(r, K):
    sol = integrate.odeint(lambda y, t, r: r * y * (1 - y / K), 0.1, T, args=(r,))
    return np.sum(sol ** 2)


def default_capture(r, K):
    sol = integrate.odeint(lambda y, t, r, cap=K: r * y * (1 - y / cap), 0.1, T, args=(r,))
    return np.sum(sol ** 2)


@pytest.mark.parametrize("fn", [free_capture, default_capture, ivp_shadowing],
                         ids=lambda fn: fn.__name__)
def test_a_lambda_reading_a_differentiated_value_is_still_refused(fn):
    with pytest.raises(TransformError) as caught:
        grad(fn, wrt=(0, 1))(1.2, 2.0)
    assert f":{line_of(fn, 'integrate.')}:" in str(caught.value)
