"""grad, vjp and check_grads of NumPy functions taking `*args` (np.einsum's operands,
np.gradient's spacings, np.meshgrid's vectors): wrt counts positional arguments."""
import numpy as np
import pytest

from tests.gradcheck import check_grad, check_vjp
from tests.rules.checks import rand
from transform import grad, vjp

A, B, V = rand(2, 3), rand(3, 4, seed=1), rand(3, seed=2)


@pytest.mark.parametrize("wrt", [(1, 2), (1,), (2,), 2])
def test_vjp_of_einsum_by_position(wrt):
    check_vjp(np.einsum, ["ij,jk", A, B], wrt=wrt)


def test_grad_of_einsum_to_a_scalar():
    check_grad(np.einsum, ["i,i", V, V + 1], wrt=(1, 2))
    check_grad(np.einsum, ["ij,jk,ki", A, B, rand(4, 2, seed=3)], wrt=3)


def test_vjp_of_meshgrid_and_gradient():
    check_vjp(np.meshgrid, [V, rand(4, seed=4)], wrt=(0, 1))
    check_vjp(np.gradient, [rand(5), 0.3], wrt=(0, 1))


def test_vjp_of_atleast_2d():
    check_vjp(np.atleast_2d, [V])
    check_grad(lambda x: np.sum(np.atleast_2d(x) ** 2), [V])


def test_grad_of_atleast_2d_is_not_a_scalar():
    with pytest.raises(TypeError, match="scalar output"):
        grad(np.atleast_2d)(1.0)


@pytest.mark.parametrize("wrt", [(3,), (-1,)])
def test_position_out_of_range_is_refused(wrt):
    with pytest.raises(TypeError, match="out of range"):
        vjp(np.einsum, "ij,jk", A, B, wrt=wrt)


def test_check_grads_of_variadic_functions():
    from transform.testing import check_grads
    assert set(check_grads(np.einsum, "ij,jk", A, B)) == {"args[1]", "args[2]"}
    assert set(check_grads(np.einsum, "ij,jk", A, B, wrt=2)) == {"args[2]"}
    assert set(check_grads(np.meshgrid, V, rand(2, seed=5))) == {"args[0]", "args[1]"}
    assert set(check_grads(np.gradient, rand(5), 0.3)) == {"f", "args[1]"}
