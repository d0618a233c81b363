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
