"""scipy.integrate.odeint by the adjoint method: in y0 and args, against closed forms and
central differences at tight solver tolerances (the cotangents are only as exact as
rtol/atol); what stays refused (closures over differentiated values, the times)."""
import numpy as np
import pytest

from tests.gradcheck import POLICIES

integrate = pytest.importorskip("scipy.integrate")
odeint = integrate.odeint

from tests.fd import assert_close, numerical_grad  # noqa: E402
from transform import TransformError, grad, jvp  # noqa: E402

T = np.linspace(0.0, 2.0, 5)


def decay(y, t, k):
    return -k * y


def decay_loss(y0, k):
    return np.sum(odeint(decay, y0, T, args=(k,), rtol=1e-12, atol=1e-12) ** 2)


def test_exponential_decay_against_its_closed_form():
    # loss = sum_t sum_i y0_i^2 exp(-2 k t)
    y0, k = np.array([1.0, 2.0]), 0.7
    e = np.exp(-2 * k * T)
    assert_close(grad(decay_loss)(y0, k), 2 * y0 * np.sum(e), rtol=1e-9)
    assert_close(grad(decay_loss, wrt=1)(y0, k), np.sum(y0 ** 2) * np.sum(-2 * T * e), rtol=1e-9)


def lotka_volterra(y, t, a, b):
    return np.array([a * y[0] - b * y[0] * y[1], -y[1] + b * y[0] * y[1]])


def lotka_loss(y0, a, b):
    ys = odeint(lotka_volterra, y0, T, args=(a, b), rtol=1e-11, atol=1e-11)
    return np.sum(ys[-1] * np.array([1.0, 2.0])) + np.sum(np.sin(ys[1]))


def pendulum(t, y, params):
    damping, length = params[0], params[1]
    return np.array([y[1], -9.81 / length * np.sin(y[0]) - damping * y[1]])


def pendulum_loss(y0, params):
    ys = odeint(pendulum, y0, T, args=(params,), tfirst=True, rtol=1e-11, atol=1e-11)
    return np.sum(ys[:, 0] ** 2)


def power_law(y, t, k, n):
    return -k * y ** n


def power_loss(y0, k):
    return np.sum(odeint(power_law, y0, T, (k, 3), rtol=1e-11, atol=1e-11))


def state_through_numpy(y0, k):
    ys = odeint(decay, np.exp(y0), T, args=(k * 2.0,), rtol=1e-11, atol=1e-11)
    return np.sum(np.tanh(ys))


PROGRAMS = [(lotka_loss, (np.array([1.0, 0.5]), 1.1, 0.4), (0, 1, 2)),
            (pendulum_loss, (np.array([0.3, 0.0]), np.array([0.2, 1.5])), (0, 1)),
            (power_loss, (np.array([1.0, 2.0]), 0.5), (0, 1)),
            (state_through_numpy, (np.array([0.1, -0.3]), 0.4), (0, 1))]


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn,args,wrts", PROGRAMS, ids=lambda v: getattr(v, "__name__", ""))
def test_against_finite_differences(fn, args, wrts, policy):
    for wrt in wrts:
        assert_close(grad(fn, wrt=wrt, policy=policy)(*args), numerical_grad(fn, args, wrt),
                     rtol=1e-6, atol=1e-8)


def captured_in_a_lambda(y0, k):
    return np.sum(odeint(lambda y, t: -k * y, y0, T))


def captured_in_a_nested_function(y0, k):
    def rhs(y, t):
        return -k * y
    return np.sum(odeint(rhs, y0, T))


def differentiated_times(y0, s):
    return np.sum(odeint(decay, y0, T * s, args=(0.5,)))


@pytest.mark.parametrize("fn", [captured_in_a_lambda, captured_in_a_nested_function,
                                differentiated_times])
def test_what_the_rule_cannot_see_is_refused(fn):
    with pytest.raises(TransformError):
        grad(fn, wrt=1)(np.array([1.0]), 0.5)


def with_full_output(y0, k):
    ys, info = odeint(decay, y0, T, args=(k,), full_output=1)
    return np.sum(ys)


def test_full_output_is_refused():
    with pytest.raises((TransformError, TypeError), match="full_output"):
        grad(with_full_output)(np.array([1.0]), 0.5)


solve_ivp = integrate.solve_ivp


def decay_tfirst(t, y, k):
    return -k * y


def ivp_decay_loss(y0, k):
    sol = solve_ivp(decay_tfirst, (0.0, 2.0), y0, method="DOP853", t_eval=T, args=(k,),
                    rtol=1e-12, atol=1e-12)
    return np.sum(sol.y ** 2)


def test_solve_ivp_against_the_closed_form():
    y0, k = np.array([1.0, 2.0]), 0.7
    e = np.exp(-2 * k * T)
    assert_close(grad(ivp_decay_loss)(y0, k), 2 * y0 * np.sum(e), rtol=1e-9)
    assert_close(grad(ivp_decay_loss, wrt=1)(y0, k), np.sum(y0 ** 2) * np.sum(-2 * T * e),
                 rtol=1e-9)


def lotka_tfirst(t, y, a, b):
    return lotka_volterra(y, t, a, b)


def ivp_lotka_loss(y0, a, b):
    sol = solve_ivp(lotka_tfirst, (0.0, 2.0), y0, method="DOP853",
                    t_eval=np.linspace(0.5, 2.0, 4), args=(a, b), rtol=1e-12, atol=1e-12)
    return np.sum(np.sin(sol.y)) + sol.y[0, -1] * sol.t[-1]


def ivp_default_method(y0, params):
    sol = solve_ivp(pendulum, (0.0, 1.0), y0, t_eval=np.array([0.0, 0.5, 1.0]),
                    args=(params,), rtol=1e-10, atol=1e-10)
    return np.sum(sol.y[0] ** 2)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn,args,wrts", [
    (ivp_lotka_loss, (np.array([1.0, 0.5]), 1.1, 0.4), (0, 1, 2)),
    (ivp_default_method, (np.array([0.3, 0.1]), np.array([0.2, 1.5])), (0, 1))],
    ids=lambda v: getattr(v, "__name__", ""))
def test_solve_ivp_against_finite_differences(fn, args, wrts, policy):
    for wrt in wrts:
        assert_close(grad(fn, wrt=wrt, policy=policy)(*args), numerical_grad(fn, args, wrt),
                     rtol=1e-5, atol=1e-7)


def ivp_without_t_eval(y0, k):
    return np.sum(solve_ivp(decay_tfirst, (0.0, 2.0), y0, args=(k,)).y[:, -1])


@pytest.mark.parametrize("api", ["grad", "jvp"])
def test_solve_ivp_without_output_times_is_refused(api):
    """A TransformError at the user's line (it was a TypeError from the rule: red39)."""
    with pytest.raises(TransformError, match="t_eval") as info:
        if api == "grad":
            grad(ivp_without_t_eval)(np.array([1.0]), 0.5)
        else:
            jvp(ivp_without_t_eval, (np.array([1.0]), 0.5), (np.array([1.0]),), wrt=0)
    assert info.value.filename == __file__
