"""Dicts -- literals, dict(a=...), reads by constant and variable keys,
nested dicts, iteration over .items() / .keys() / the dict itself, dict
arguments iterated in a loop; item assignment and .values() (known bugs)."""
import numpy as np
import pytest

from transform import TransformError, grad

from . import funcs as F
from .check import assert_error_at, check_grad, policies

X, Y = 0.7, -1.3
A = np.array([0.3, -0.8, 1.1])
B = np.array([1.2, 0.4, -0.5])
D = {"a": np.array([0.5, -1.5]), "b": np.array([2.0, 0.25]), "c": np.array([-0.3, 0.8])}

CASES = {
    "dict_literal_s": (F.dict_literal_s, (X, Y), (0, 1)),
    "dict_literal_a": (F.dict_literal_a, (A, B), (0, 1)),
    "dict_call_s": (F.dict_call_s, (X, Y), (0, 1)),
    "dict_call_a": (F.dict_call_a, (A, B), (0, 1)),
    "dict_variable_key_s": (F.dict_variable_key_s, (X, Y), (0, 1)),
    "dict_variable_key_a": (F.dict_variable_key_a, (A, B), (0, 1)),
    "dict_nested_s": (F.dict_nested_s, (X, Y), (0, 1)),
    "dict_nested_a": (F.dict_nested_a, (A, B), (0, 1)),
    "dict_items_s": (F.dict_items_s, (X, Y), (0, 1)),
    "dict_items_a": (F.dict_items_a, (A, B), (0, 1)),
    "dict_keys_a": (F.dict_keys_a, (D,), 0),
    "dict_iterate_a": (F.dict_iterate_a, (D,), 0),
}


@pytest.mark.parametrize("policy", policies())
@pytest.mark.parametrize("name", list(CASES))
def test_gradient_matches_finite_differences(name, policy):
    fn, args, wrt = CASES[name]
    check_grad(fn, args, wrt=wrt, policy=policy)


@pytest.mark.parametrize("policy", policies())
def test_items_of_a_dict_argument_in_a_loop(policy):
    rng = np.random.default_rng(5)
    p = {"first": rng.standard_normal((3, 3)) * 0.5, "second": rng.standard_normal((3, 3)) * 0.5}
    check_grad(F.dict_param_items_a, (p, A), wrt=(0, 1), policy=policy)


def test_variable_key_exact():
    # total = x y + y y + x y, then + x x  ->  f = 2 x y + y^2 + x^2
    dx, dy = grad(F.dict_variable_key_s, wrt=(0, 1))(X, Y)
    assert dx == pytest.approx(2 * Y + 2 * X, rel=1e-12)
    assert dy == pytest.approx(2 * X + 2 * Y, rel=1e-12)


# dict literals with variable keys are rejected: see tests/containers/test_errors.py


@pytest.mark.parametrize("policy", policies())
def test_dict_item_assignment(policy):
    check_grad(F.dict_setitem_s, (X,), wrt=0, policy=policy)


def test_dict_values_works_or_names_the_line():
    try:
        g = grad(F.dict_values_a)(D)
    except TransformError as err:
        assert_error_at(err, F.dict_values_a, "d.values()")
    else:
        for k in D:
            np.testing.assert_allclose(g[k], 2 * D[k], rtol=1e-12)
