"""What the hvp_routes fuzz class (tests/fuzz/oracle_routes.py) found, session 37: each
program's gradient against central finite differences of f, and hvp on every route
right (against differences of the gradient along v) or refused with a TransformError;
never a crash."""
import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad, numerical_jvp
from transform import TransformError, grad, hvp

ROUTES = (None, "forward_over_reverse", "auto")
A = np.array([-0.04, 0.24, -0.57])
V = np.array([0.3, -0.2, 0.5])


def r_of_a_tuple_name(x, a):               # hvp_routes:37008: `np.r_[t]`, t a tuple
    t = (a[1] * x, a)
    return np.sum(np.sin(np.r_[t])) * x


def r_of_one_array(x, a):
    return np.sum(np.sin(np.r_[a * x]))


def check_routes(fn, args, k, v):
    """fn's gradient against differences of fn; hvp on each route (a refusal aside)
    against differences of that gradient along v (the first check showed it right)."""
    for j in range(len(args)):
        assert_close(grad(fn, wrt=j)(*args), numerical_grad(fn, args, j), what=f"d/d{j}")
    want = numerical_jvp(grad(fn, wrt=k), args, k, v)
    ran = 0
    for route in ROUTES:
        try:
            hv = hvp(fn, args, (v,), wrt=k, route=route)
        except TransformError:
            continue
        assert_close(hv, want, rtol=1e-5, atol=1e-6, what=f"hvp route={route}")
        ran += 1
    return ran


@pytest.mark.parametrize("fn", [r_of_a_tuple_name, r_of_one_array])
def test_index_trick_given_one_expression(fn):
    """np.r_[t] took t as its one item (np.r_[(t,)]: a crash) in reverse mode."""
    check_routes(fn, (0.48, A.copy()), 0, 0.7)
    check_routes(fn, (0.48, A.copy()), 1, V)


class Held:
    def __init__(self, b):
        self.shape = b              # an attribute named like an array's metadata


def object_shape_times_x(x):        # hvp_routes:37217: `v.shape` of a callee's object
    return Held(np.tanh(x)).shape * x


def test_an_objects_attribute_named_shape_carries_a_tangent():
    """Forward over reverse took `v.shape` of a flat gradient's rule_call value for an
    array's metadata (no tangent): H v was wrong, not refused."""
    assert check_routes(object_shape_times_x, (-0.9,), 0, 1.0) == 3
