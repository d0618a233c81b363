"""hvp's forward-over-reverse route (the default's first choice) copies the compiled
rule's closure cells into its flat gradient: a closure whose cell is rebound after an
hvp (`nonlocal k`) gave the old k's Hessian (found in session 39's review; on main
before that session too). The flat gradient is rebuilt when a cell holds another object."""
import numpy as np
import pytest

from tests.fd import assert_close, numerical_jvp
from transform import grad, hessian, hvp


def scaled_cube():
    k = 2.0

    def f(x):
        return np.sum(k * x ** 3)

    def set_k(value):
        nonlocal k
        k = value
    return f, set_k


@pytest.mark.parametrize("route", [None, "forward_over_reverse", "reverse_over_forward"])
def test_a_rebound_cell_is_seen(route):
    f, set_k = scaled_cube()
    x, v = np.array([0.5, -1.0]), np.array([1.0, 0.3])
    for k in (2.0, -5.0, 0.5):
        set_k(k)
        want = numerical_jvp(grad(f), (x,), 0, v)
        assert_close(hvp(f, (x,), (v,), route=route), want)
        assert_close(hessian(f, route=route)(x), np.diag(6 * k * x))
