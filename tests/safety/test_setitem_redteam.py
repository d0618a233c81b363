"""Red-team findings on element stores, each right (value and finite-difference gradient,
every policy, grad and vjp, shape-specialised and general rules) or refused before the
generated code runs.

B3  `q[k] = v` into a dict or list inside a loop: the backward sweep unbroadcast each
    iteration's cotangent to the shape of the *last* iteration's value (w got 4 instead of
    2), and a zero entry became an object array (TypeError inside generated code).
B6  `y[[0, 0]] = x`: NumPy keeps the last write of a position, the cotangent went to every
    write; a repeated fancy read in a loop (loop policy) counted once.
B4  a helper's `*args`/`**kwargs` got a silent zero gradient: then refused at the call;
    `*args` differentiated since session 30, `**kwargs` still refused.
"""
import inspect

import numpy as np
import pytest

from tests.containers.check import check_grad, check_vjp
from tests.fd import assert_close, numerical_grad
from tests.gradcheck import POLICIES
from tests.safety import setitem_programs as P
from transform import TransformError, grad, value_and_grad

W = np.array([[0.3, -0.2, 0.5], [0.1, 0.4, -0.6]])


def params_dict(b_kind):
    b = {"float": 0.7, "vector": np.array([0.4, -0.3])}[b_kind]
    return {"w": np.array([1.0, 2.0]), "b": b}


# ---- B3: stores into containers in loops ----------------------------------------------
@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("b_kind", ["float", "vector"])
@pytest.mark.parametrize("fn", [P.dict_scaled, P.dict_scaled_both], ids=lambda f: f.__name__)
def test_dict_store_in_loop(fn, b_kind, policy):
    check_grad(fn, (params_dict(b_kind),), wrt=0, policy=policy)
    check_vjp(fn, (params_dict(b_kind),), wrt=(0,), policy=policy)


def test_dict_store_exact_gradient():
    g = grad(P.dict_scaled)({"w": np.array([1.0, 2.0]), "b": 5.0})
    np.testing.assert_array_equal(g["w"], [2.0, 2.0])
    assert not g["b"]


def test_dict_store_unread_array_entry_is_zero():
    g = grad(P.dict_scaled)({"w": np.array([1.0, 2.0]), "b": np.array([5.0, 1.0])})
    np.testing.assert_array_equal(g["w"], [2.0, 2.0])
    np.testing.assert_array_equal(g["b"], [0.0, 0.0])


@pytest.mark.parametrize("policy", POLICIES)
def test_sgd_step_over_a_params_dict(policy):
    params = {"W": W.copy(), "b": np.array([0.2, -0.1])}
    x = np.array([0.5, -1.0, 2.0])
    check_grad(P.dict_sgd_step, (params, x), wrt=(0, 1), policy=policy)
    check_vjp(P.dict_sgd_step, (params, x), wrt=(0, 1), policy=policy)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("keys", [["w", "b"], ["b", "w", "b"], ["w"]])
def test_dict_keys_from_a_loop_variable(keys, policy):
    p = {"w": np.array([1.0, -2.0, 0.5]), "b": 0.3}
    check_grad(P.dict_keys_from_list, (p, keys), wrt=0, policy=policy)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn", [P.list_scaled, P.list_scaled_both], ids=lambda f: f.__name__)
@pytest.mark.parametrize("order", ["array_first", "float_first"])
def test_list_store_in_loop(fn, order, policy):
    xs = [np.array([1.0, 2.0]), 5.0]
    xs = xs if order == "array_first" else xs[::-1]
    check_grad(fn, (xs,), wrt=0, policy=policy)
    check_vjp(fn, (list(xs),), wrt=(0,), policy=policy)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("n", [0, 1, 3])
def test_list_store_nested_loops(n, policy):
    xs = [np.array([0.5, -1.0, 2.0]), 0.8]
    check_grad(P.list_nested_loops, (xs, n), wrt=0, policy=policy)


@pytest.mark.parametrize("policy", POLICIES)
def test_array_store_value_shape_changes_per_iteration(policy):
    x = np.array([0.5, -1.0, 2.0])
    check_grad(P.array_shrinking_slices, (x,), wrt=0, policy=policy)
    check_vjp(P.array_shrinking_slices, (x,), wrt=(0,), policy=policy)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("order", ["array_first", "float_first"])
def test_array_rows_stored_from_mixed_values(order, policy):
    xs = [np.array([1.0, 2.0]), 5.0]
    xs = xs if order == "array_first" else xs[::-1]
    check_grad(P.array_rows_mixed, (xs,), wrt=0, policy=policy)


@pytest.mark.parametrize("policy", POLICIES)
def test_general_rule_array_store_in_loop(policy):
    """A keyword call takes the general rule (no shape specialisation)."""
    x = np.array([0.5, -1.0, 2.0])
    value, g = value_and_grad(P.array_shrinking_slices, policy=policy)(x=x)
    assert value == pytest.approx(P.array_shrinking_slices(x))
    assert_close(g, numerical_grad(P.array_shrinking_slices, [x], 0))


# ---- B6: repeated integer-array indices -----------------------------------------------
DUP_CASES = {
    "fancy_store_dup": (P.fancy_store_dup, (np.array([1.0, 2.0]),)),
    "fancy_add_dup": (P.fancy_add_dup, (np.array([1.0, 2.0]),)),
    "fancy_sub_dup": (P.fancy_sub_dup, (np.array([1.0, 2.0, 3.0]),)),
    "fancy_add_dup_2d": (P.fancy_add_dup_2d, (np.array([1.0, 2.0]),)),
    "fancy_rows_dup": (P.fancy_rows_dup, (np.arange(6.0).reshape(2, 3) / 7.0,)),
    "fancy_scalar_dup": (P.fancy_scalar_dup, (1.5,)),
    "fancy_negative_dup": (P.fancy_negative_dup, (np.array([1.0, 2.0, 4.0]),)),
    "fancy_dup_in_loop": (P.fancy_dup_in_loop, (np.array([1.0, 2.0, 3.0]), 3)),
    "fancy_read_dup_in_loop": (P.fancy_read_dup_in_loop, (np.array([1.0, 2.0]), 2)),
    "mask_store": (P.mask_store, (np.array([1.5, -2.0, 0.5]),)),
}


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("name", sorted(DUP_CASES))
def test_duplicate_fancy_indices(name, policy):
    fn, args = DUP_CASES[name]
    check_grad(fn, args, wrt=0, policy=policy)
    check_vjp(fn, args, wrt=(0,), policy=policy)


@pytest.mark.parametrize("name", sorted(DUP_CASES))
def test_duplicate_fancy_indices_general_rule(name):
    fn, args = DUP_CASES[name]
    names = list(inspect.signature(fn).parameters)
    value, g = value_and_grad(fn, wrt=0)(**dict(zip(names, args)))   # keywords: general rule
    assert value == pytest.approx(fn(*args))
    assert_close(g, numerical_grad(fn, list(args), 0))


def test_last_write_wins_exactly():
    np.testing.assert_array_equal(grad(P.fancy_store_dup)(np.array([1.0, 2.0])), [0.0, 3.0])
    np.testing.assert_array_equal(grad(P.fancy_add_dup)(np.array([1.0, 2.0])), [0.0, 1.0])
    np.testing.assert_array_equal(grad(P.fancy_negative_dup)(np.array([1.0, 2.0, 4.0])),
                                  [0.0, 3.0, 7.0])


# ---- B4: *args / **kwargs helpers -----------------------------------------------------
@pytest.mark.parametrize("policy", POLICIES)
def test_kwargs_helper_refused_at_the_call(policy):
    P.CALLED.clear()
    with pytest.raises(TransformError) as info:
        grad(P.kwargs_helper, policy=policy)(1.5)
    text = str(info.value)
    assert "setitem_programs.py" in text and "**ks['a']" in text
    line = P.kwargs_helper.__code__.co_firstlineno + 1
    assert f"setitem_programs.py:{line}:" in text
    assert P.CALLED == []                   # refused before anything ran


# 2026-12-02, session 30 (py30a): a helper's `*args` given values is compiled for their
# count (transform/frontend/varargs.py): the gradient reaches them, and the helper runs once
@pytest.mark.parametrize("fn, expected", [(P.varargs_helper, 3.0), (P.varargs_tail, 2.0)],
                         ids=["varargs", "varargs_tail"])
@pytest.mark.parametrize("policy", POLICIES)
def test_varargs_helper_differentiated(fn, expected, policy):
    P.CALLED.clear()
    g = grad(fn, policy=policy)(1.5)
    assert len(P.CALLED) == 1               # the helper's own code ran once
    assert g == pytest.approx(expected)
    assert_close(g, numerical_grad(fn, (1.5,), 0))


def test_varargs_helper_without_differentiated_arguments_still_works():
    value, g = value_and_grad(P.varargs_not_differentiated)(1.5)
    assert value == pytest.approx(4.5) and g == pytest.approx(3.0)
