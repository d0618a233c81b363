"""Integer, boolean and string values flow through differentiated code
unharmed -- as loop bounds, indices, flags, dict values, tuple members, helper
results -- and get no adjoint (asking for one is a TypeError)."""
import numpy as np
import pytest

from transform import adjoint_source, grad, vjp

from . import funcs as F
from .check import check_grad, policies

X = 0.7
A5 = np.array([0.3, -0.8, 1.1, 0.6, -0.2])


@pytest.mark.parametrize("policy", policies())
def test_int_argument_as_bound_and_index(policy):
    g = check_grad(F.ints_flow_a, (A5, 2), wrt=0, policy=policy)
    # f = 4 sum(x[:4]) + x[1]
    np.testing.assert_allclose(g, [4.0, 5.0, 4.0, 4.0, 0.0], rtol=1e-12)


@pytest.mark.parametrize("policy", policies())
@pytest.mark.parametrize("flag", [True, False])
def test_bool_argument(flag, policy):
    g = check_grad(F.bool_flag_s, (X, flag), wrt=0, policy=policy)
    assert g == pytest.approx(2 * X if flag else 1.0, rel=1e-12)


@pytest.mark.parametrize("policy", policies())
@pytest.mark.parametrize("mode", ["square", "identity"])
def test_string_argument(mode, policy):
    g = check_grad(F.string_arg_s, (X, mode), wrt=0, policy=policy)
    assert g == pytest.approx(12 * X if mode == "square" else 1.0, rel=1e-12)


@pytest.mark.parametrize("policy", policies())
def test_ints_bools_strings_inside_local_containers(policy):
    g = check_grad(F.ints_in_containers_s, (X,), wrt=0, policy=policy)
    # f = 3x + 4x^2 + 4
    assert g == pytest.approx(3 + 8 * X, rel=1e-12)


@pytest.mark.parametrize("policy", policies())
def test_int_returned_by_a_helper(policy):
    assert check_grad(F.int_from_helper_s, (X,), wrt=0, policy=policy) == pytest.approx(3.0)


@pytest.mark.parametrize("policy", policies())
def test_int_accumulated_in_a_loop(policy):
    g = check_grad(F.ints_in_loop_a, (A5,), wrt=0, policy=policy)
    np.testing.assert_allclose(g, [0.0, 1.0, 3.0, 6.0, 10.0], rtol=1e-12)


def test_int_argument_gets_no_adjoint():
    with pytest.raises(TypeError, match="'n'"):
        grad(F.ints_flow_a, wrt=(0, 1))(A5, 2)


def test_bool_argument_gets_no_adjoint():
    with pytest.raises(TypeError, match="'flag'"):
        grad(F.bool_flag_s, wrt=1)(X, True)


def test_string_argument_gets_no_adjoint():
    with pytest.raises(TypeError, match="'mode'"):
        grad(F.string_arg_s, wrt=1)(X, "square")


def test_integer_array_argument_gets_no_adjoint():
    with pytest.raises(TypeError):
        grad(F.write_in_loop_a)(np.arange(3))


def test_vjp_skips_int_argument_when_not_asked():
    out, pullback = vjp(F.ints_flow_a, A5, 2, wrt=0)
    (g,) = pullback(1.0)
    np.testing.assert_allclose(g, [4.0, 5.0, 4.0, 4.0, 0.0], rtol=1e-12)


def test_int_values_are_not_differentiated_in_the_adjoint():
    """`count` is an int: no adjoint variable `dcount` appears in the generated code."""
    src = adjoint_source(F.ints_in_loop_a)
    assert "dcount" not in src
