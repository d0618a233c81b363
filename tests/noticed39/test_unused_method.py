"""Session 39, item 4: red37's list_item_methods through reverse over forward (hvp,
hessian): the tangent code keeps `t9 = t8.prod(1)` whose result it does not use, and a
method dispatched on the receiver's type with its result unused was refused when
compiled, though the receiver was an array. Now the user object's branch is refused only
if it runs (at the user's line); the Hessian is checked against differences of f."""
import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad
from tests.noticed39 import programs as P
from tests.red2.check import fd_hessian
from tests.red37 import programs_more as M
from transform import TransformError, grad, hessian, hvp

W = 0.5 * np.random.default_rng(0).normal(size=6)
V = np.random.default_rng(1).normal(size=6)


@pytest.mark.parametrize("route", ["reverse_over_forward", "auto"])
def test_list_item_methods_hvp(route):
    f = M.list_item_methods
    assert_close(hvp(f, (W,), (V,), route=route), fd_hessian(f, (W,), 0) @ V,
                 rtol=1e-4, atol=1e-5)


def test_list_item_methods_hessian():
    f = M.list_item_methods
    assert_close(hessian(f)(W), fd_hessian(f, (W,), 0), rtol=1e-4, atol=1e-5)


def test_dispatched_method_result_unused():
    f = P.unused_method_result
    arr = np.ones(6)                     # an array: ndarray.dot, nothing kept
    assert_close(grad(f)(W, arr), numerical_grad(f, (W, arr), 0))
    with pytest.raises((TransformError, TypeError),     # compiled for a Keeper: at once
                       match=r"programs.py:\d+:\d+: .*(method call .dot\(\)|own `dot`)"):
        grad(f)(W, P.Keeper())


def test_dispatched_user_branch_refused_when_it_runs():
    f = P.array_product_unused          # an array: ndarray.prod, computed (was refused)
    assert_close(grad(f)(W), numerical_grad(f, (W,), 0))
    with pytest.raises(TypeError, match=r"programs.py:\d+:\d+: `.prod\(...\)` on a Box is "
                                        "the object's own `prod`"):
        grad(P.box_product_unused)(W)
