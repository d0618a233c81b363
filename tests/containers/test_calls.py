"""Calls into the user's own functions -- module-level helpers, nested
defs (inlined, closures over outer and differentiated values), closures from a
module-level factory, positional/keyword/default arguments, recursion, and
gradients through callee outputs that are tuples, lists and dicts."""
import numpy as np
import pytest

from transform import adjoint_source, grad, vjp

from . import funcs as F
from .check import check_grad, check_vjp, policies

X, Y = 0.7, -1.3
A = np.array([0.3, -0.8, 1.1])
B = np.array([1.2, 0.4, -0.5])
W3 = np.array([[0.4, -0.3, 0.2], [0.1, 0.5, -0.6], [-0.2, 0.3, 0.45]])

CASES = {
    # module-level helpers
    "call_module_s": (F.call_module_s, (X, Y), (0, 1)),
    "call_module_a": (F.call_module_a, (A, B), (0, 1)),
    "call_chain_s": (F.call_chain_s, (X, Y), (0, 1)),
    "call_chain_a": (F.call_chain_a, (A, B), (0, 1)),
    "call_twice_s": (F.call_twice_s, (X,), 0),
    "call_twice_a": (F.call_twice_a, (A,), 0),
    # positional / keyword / default arguments
    "call_args_s": (F.call_args_s, (X, Y), (0, 1)),
    "call_args_a": (F.call_args_a, (A, B), (0, 1)),
    # nested defs
    "nested_reads_outer_s": (F.nested_reads_outer_s, (X, Y), (0, 1)),
    "nested_reads_outer_a": (F.nested_reads_outer_a, (A, B), (0, 1)),
    "nested_defaults_s": (F.nested_defaults_s, (X, Y), (0, 1)),
    "nested_defaults_a": (F.nested_defaults_a, (A, B), (0, 1)),
    "nested_in_loop_s": (F.nested_in_loop_s, (X, 0.8), (0, 1)),
    "nested_in_loop_a": (F.nested_in_loop_a, (A, W3), (0, 1)),
    "nested_calls_nested_s": (F.nested_calls_nested_s, (X, Y), (0, 1)),
    "nested_calls_nested_a": (F.nested_calls_nested_a, (A, B), (0, 1)),
    "nested_returns_tuple_s": (F.nested_returns_tuple_s, (X, Y), (0, 1)),
    "nested_param_shadows_outer_s": (F.nested_param_shadows_outer_s, (X,), 0),
    "nested_late_binding_s": (F.nested_late_binding_s, (X,), 0),
    "nested_loop_variable_s": (F.nested_loop_variable_s, (X,), 0),
    # closures from a module-level factory
    "factory_closure_s": (F.factory_closure_s, (X,), 0),
    "factory_closure_a": (F.factory_closure_a, (A,), 0),
    # recursion
    "recursion_power_s": (F.recursion_power_s, (X,), 0),
    "recursion_power_a": (F.recursion_power_a, (A,), 0),
    "recursion_deep_s": (F.recursion_deep_s, (1.05,), 0),
    "recursion_over_list_a": (F.recursion_over_list_a, (A,), 0),
    "recursion_mutual_s": (F.recursion_mutual_s, (X,), 0),
    # callee outputs that are tuples, lists, dicts
    "tuple_out_unpack_s": (F.tuple_out_unpack_s, (X, Y), (0, 1)),
    "tuple_out_unpack_a": (F.tuple_out_unpack_a, (A, B), (0, 1)),
    "tuple_out_index_s": (F.tuple_out_index_s, (X, Y), (0, 1)),
    "tuple_out_nested_s": (F.tuple_out_nested_s, (X,), 0),
    "tuple_out_nested_a": (F.tuple_out_nested_a, (A,), 0),
    "tuple_out_int_a": (F.tuple_out_int_a, (A,), 0),
    "tuple_out_only_second_s": (F.tuple_out_only_second_s, (X, Y), (0, 1)),
    "list_out_s": (F.list_out_s, (X,), 0),
    "dict_out_a": (F.dict_out_a, (A,), 0),
    # callees taking containers
    "pass_tuple_s": (F.pass_tuple_s, (X, Y), (0, 1)),
}


@pytest.mark.parametrize("policy", policies())
@pytest.mark.parametrize("name", list(CASES))
def test_gradient_matches_finite_differences(name, policy):
    fn, args, wrt = CASES[name]
    check_grad(fn, args, wrt=wrt, policy=policy)


@pytest.mark.parametrize("policy", policies())
def test_helper_taking_a_dict_and_a_name(policy):
    rng = np.random.default_rng(3)
    p = {"W1": rng.standard_normal((4, 3)), "b1": rng.standard_normal(4),
         "W2": rng.standard_normal((2, 4)), "b2": rng.standard_normal(2)}
    check_grad(F.two_layers, (p, A), wrt=(0, 1), policy=policy)


@pytest.mark.parametrize("policy", policies())
def test_vjp_of_a_tuple_returned_by_a_helper(policy):
    out, pullback = vjp(F.returns_tuple, X, Y, policy=policy)
    assert isinstance(out, tuple) and len(out) == 2
    dx, dy = pullback((1.0, 0.5))
    # d/dx (x y + 0.5 (x + sin y)) = y + 0.5; d/dy = x + 0.5 cos y
    assert dx == pytest.approx(Y + 0.5, rel=1e-12)
    assert dy == pytest.approx(X + 0.5 * np.cos(Y), rel=1e-12)


@pytest.mark.parametrize("policy", policies())
def test_vjp_through_a_helper_on_arrays(policy):
    check_vjp(F.mul_add, (A, B), wrt=(0, 1), policy=policy)


def test_recursion_gradient_exact():
    g = grad(F.recursion_power_s)(X)
    assert g == pytest.approx(4 * X ** 3, rel=1e-12)
    assert grad(F.recursion_deep_s)(1.05) == pytest.approx(12 * 1.05 ** 11, rel=1e-12)


def test_nested_def_is_inlined_not_called():
    """The nested def's body appears in the adjoint: no rule is made for `inner`."""
    src = adjoint_source(F.nested_reads_outer_s, wrt=(0, 1))
    assert "inner_rrule" not in src
    assert "inner(" not in src


def test_module_level_callee_gets_its_own_rule():
    src = adjoint_source(F.call_module_s, wrt=(0, 1))
    assert "mul_add_rrule" in src


def test_closure_over_differentiated_value_contributes():
    """`inner` reads y from the enclosing call; dropping that path changes dy."""
    x, y = X, Y
    dx, dy = grad(F.nested_reads_outer_s, wrt=(0, 1))(x, y)
    # f = (x c + y x)(x^2 c + y x^2) with c = cos y
    c, s = np.cos(y), -np.sin(y)
    u, v = x * c + y * x, x * x * c + y * x * x
    assert dy == pytest.approx((x * s + x) * v + u * (x * x * s + x * x), rel=1e-10)
    assert dx == pytest.approx((c + y) * v + u * (2 * x * c + 2 * y * x), rel=1e-10)


# ---- known bugs -----------------------------------------------------------------
NESTED_LOCAL = ("bug: a nested def that assigns a local (`z = v * v; return z`) is inlined "
                "with its loads renamed to `g_z` but its stores not: NameError at run time")


@pytest.mark.parametrize("policy", policies())
def test_nested_def_with_a_local_variable_s(policy):
    check_grad(F.nested_local_s, (X,), wrt=0, policy=policy)


@pytest.mark.parametrize("policy", policies())
def test_nested_def_with_a_local_variable_a(policy):
    check_grad(F.nested_local_a, (A,), wrt=0, policy=policy)


@pytest.mark.parametrize("policy", policies())
def test_nested_default_is_evaluated_at_definition(policy):
    check_grad(F.nested_default_from_outer_s, (X, Y), wrt=(0, 1), policy=policy)


def test_keyword_only_parameter_default():
    check_grad(F.call_kwonly_default_s, (X,), wrt=0)


def test_keyword_only_parameter_passed():
    check_grad(F.call_kwonly_passed_s, (X, Y), wrt=(0, 1))


# `*args` at a call site is not supported yet: see tests/containers/test_errors.py
