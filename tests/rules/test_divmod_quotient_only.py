"""divmod's cotangent when only the quotient is read (session 33, found by grad of grad on
the corpus): the operand's cotangent is a zero, not None, so `da + dt * 3.0` runs."""
import numpy as np

from tests.fd import numerical_grad
from transform import grad


def quotient_times(a, b):
    t = 3.0 * a
    q, r = divmod(t, b)
    return q * a


def quotient_of_arrays(x, y):
    q, _ = divmod(2.0 * x, y)
    return np.sum(q * x)


def test_quotient_alone_of_numbers():
    got = grad(quotient_times, 0)(1.7, 0.9)
    assert np.isclose(got, numerical_grad(quotient_times, (1.7, 0.9), 0))


def test_quotient_alone_of_arrays():
    x, y = np.array([1.3, 2.2, 0.4]), np.array([0.7, 0.9, 0.3])
    gx, gy = grad(quotient_of_arrays, (0, 1))(x, y)
    assert np.allclose(gx, numerical_grad(quotient_of_arrays, (x, y), 0))
    assert np.allclose(gy, 0.0)
