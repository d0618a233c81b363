"""A call that leaves defaults out or passes keywords gets the rule specialised to the
shapes of every parameter's value, as the call that spells them all out."""
import numpy as np
import pytest

from tests.gradcheck import check_grad
from transform.api import _full_signature, signature_of


def simulate(theta0, dt=1e-3, steps=50):
    theta, omega = theta0, 0.0
    for _ in range(steps):
        omega = omega - dt * 9.81 * np.sin(theta)
        theta = theta + dt * omega
    return np.sum(theta)


def test_defaults_left_out_give_the_full_signature():
    x = np.array([0.5, 0.2])
    full = signature_of((x, 1e-3, 50))
    assert _full_signature(simulate, (x,), {}) == full
    assert _full_signature(simulate, (x,), {"steps": 50}) == full
    assert _full_signature(simulate, (), {"theta0": x, "dt": 1e-3}) == full


def test_a_call_that_does_not_bind_has_no_signature():
    assert _full_signature(simulate, (1.0, 2.0, 3, 4), {}) is None


def test_gradient_with_defaults_left_out():
    check_grad(simulate, (np.array([0.5, 0.2]),))
    check_grad(lambda x: simulate(x, dt=2e-3), (np.array([0.5, 0.2]),))


def scaled(x, y=2.0, *, z=3.0):
    return x * y * z + y ** 2


def test_wrt_a_parameter_left_at_its_default():
    # (a KeyError: the gradient's shape was looked up among the arguments passed)
    from transform import grad
    assert grad(scaled, wrt="y")(0.7) == pytest.approx(0.7 * 3.0 + 2.0 * 2.0)
    assert grad(scaled, wrt="z")(0.7) == pytest.approx(1.4)
    assert grad(scaled, wrt=(0, 1))(0.7) == pytest.approx((6.0, 6.1))


def test_defaults_and_keywords_take_the_positional_fast_path(monkeypatch):
    """grad(f)(x) for f(x, dt=..., steps=...) binds the call without inspect (the
    general path's signature binding cost 8x a small function's gradient)."""
    import inspect
    from transform import grad
    x = np.array([0.5, 0.2])
    df = grad(simulate)
    want = df(x, 1e-3, 50)
    calls = []
    real = inspect.signature
    monkeypatch.setattr(inspect, "signature", lambda *a, **k: calls.append(a) or real(*a, **k))
    for got in (df(x), df(x, steps=50), df(theta0=x, dt=1e-3), df(x, 1e-3, steps=50)):
        np.testing.assert_array_equal(got, want)
    assert calls == []


@pytest.mark.parametrize("args,kwargs", [((1.0, 2.0, 3, 4), {}), ((1.0,), {"theta0": 1.0}),
                                         ((1.0,), {"nope": 1}), ((), {"dt": 1.0})])
def test_calls_that_do_not_bind_still_fail_as_python_says(args, kwargs):
    from transform import grad
    with pytest.raises(TypeError):
        grad(simulate)(*args, **kwargs)


def test_value_and_grad_with_keywords_and_a_wrt_left_at_its_default():
    from transform import grad, value_and_grad
    value, g = value_and_grad(scaled, wrt=(0, 1))(0.7, y=1.5)
    assert value == pytest.approx(0.7 * 1.5 * 3.0 + 1.5 ** 2)
    assert g == pytest.approx((4.5, 2.1 + 3.0))
    assert grad(simulate, wrt="dt")(np.array([0.5, 0.2])) == pytest.approx(
        grad(simulate, wrt="dt")(np.array([0.5, 0.2]), 1e-3, 50))
