"""hvp of a loop storing into a list some of whose entries are never read (fuzz
forward_mode:34221, session 34): reverse mode over the tangent code got None as the
cotangent of a stored tangent nothing read (stored_tangent_vjp), and multiplied it (a
TypeError). Against central differences of the gradient."""
import numpy as np
import pytest

from tests.fd import assert_close, numerical_jvp
from transform import grad, hvp


def first_entry_read(x, a):
    out = [0.0, 0.0]
    for k in range(2):
        out[k] = x * x * np.sum(a) + k
    return out[0]


def squared_first(x, a):
    out = [0.0] * 3
    for k in range(3):
        out[k] = np.tanh(x * np.sum(a) * (k + 1))
    return out[0] * out[0] + out[2]


def listed_values(x, a):
    xs = [x, a + x]
    out = [0.0] * 2
    for k, v in enumerate(xs):
        out[k] = np.tanh(v * (-1.2 + np.tanh(np.dot(a, a))))
    return np.sum(out[1] * out[1])


@pytest.mark.parametrize("fn", [first_entry_read, squared_first, listed_values])
def test_hvp_matches_differences_of_the_gradient(fn):
    x, a = 0.3, np.array([0.2, -0.4, 0.9])
    want = numerical_jvp(lambda t: grad(fn)(t, a), [x], 0, 1.0)
    assert_close(hvp(fn, (x, a), (1.0,)), want, rtol=1e-5, atol=1e-7)
