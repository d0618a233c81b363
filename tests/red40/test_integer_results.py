"""A helper's or property's integer made from sizes (`len(c) - 1`, `int(g.max()) + 1`)
carries no derivative: reaching np.arange's stop it is no longer refused
(transform/lowering/integer_results.py); a float result of a helper stays
differentiated, and a `.shape` that is no integer is refused when the code runs."""
import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad
from transform import grad, hessian

C = np.array([0.5, -0.3, 0.2, 0.1])


def _degree(c):
    return len(c) - 1


def _top(c):
    """calls another such helper and reads .shape"""
    n = _degree(c) + c.shape[0] // 2
    return n - 2


class _Poly:
    def __init__(self, coeffs, groups):
        self.coeffs = coeffs
        self.groups = groups

    @property
    def degree(self):
        return len(self.coeffs) - 1

    @property
    def n_groups(self):
        return int(self.groups.max()) + 1

    def slope(self):
        return np.sum(self.coeffs[1:] * np.arange(1, self.degree + 1) ** 2)


def by_helper(c):
    return np.sum(c[1:] * np.arange(1, _degree(c) + 1) * c[:-1]) + _top(c) * np.sum(c ** 2)


def by_property(c):
    p = _Poly(c, np.array([0, 2, 1]))
    return p.slope() ** 2 + p.n_groups * np.sum(np.sin(p.coeffs[:p.degree]))


def _scaled(c):
    return len(c) * c[0]          # a float made from c: differentiated


def float_helper(c):
    return _scaled(c) ** 2 + np.sum(c)


@pytest.mark.parametrize("f", [by_helper, by_property, float_helper])
def test_gradient_and_hessian_against_differences(f):
    want = numerical_grad(f, [C], 0)
    assert np.any(want != 0)
    assert_close(grad(f)(C), want, 1e-6, 1e-8, f.__name__)
    rows = np.array([numerical_grad(lambda c: grad(f)(c)[k], [C], 0) for k in range(len(C))])
    assert_close(hessian(f)(C), rows, 1e-5, 1e-7, f.__name__ + " hessian")


class _Box:
    def __init__(self, shape):
        self.shape = shape


def _twice_shape(b):
    return b.shape * 2


def box_shape(x):
    b = _Box(x[0])
    return _twice_shape(b) * x[1] + b.shape


def given_box_shape(x, b):
    return _twice_shape(b) * x[1] + x[0]


def test_a_shape_that_is_no_integer_is_refused_when_it_runs():
    with pytest.raises(TypeError, match="integer made from sizes"):
        grad(given_box_shape)(np.array([0.5, 2.0]), _Box(0.3))


def test_a_local_objects_shape_is_differentiated():
    """b is a local _Box: the helper is compiled, not guessed (session 40)"""
    x = np.array([0.5, 2.0])
    assert_close(grad(box_shape)(x), numerical_grad(box_shape, [x], 0), 1e-6, 1e-8, "box")
