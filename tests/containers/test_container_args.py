"""Arguments that are containers. grad(f, wrt=0) on a tuple, list or
dict (or nested) returns a gradient of the same structure -- same container
types and keys, arrays of the same shapes and dtypes, floats for floats; a
dataclass gets a dataclass, a plain object a dict by attribute. vjp likewise.
Checked leaf by leaf against central finite differences."""
import numpy as np
import pytest

from transform import grad, value_and_grad

from . import funcs as F
from .check import assert_like, check_grad, check_vjp, is_zero, policies

RNG = np.random.default_rng(7)
W = RNG.standard_normal((2, 3)) * 0.6
b = RNG.standard_normal(2) * 0.3
x3 = RNG.standard_normal(3)


def args_for(name):
    """Fresh arguments (a test may not share mutable containers with another)."""
    return {
        "tuple_of_floats": (F.arg_tuple_s, ((1.5, -0.7),), 0),
        "tuple_of_arrays": (F.arg_tuple_a, ((W.copy(), np.cos(W)),), 0),
        "list_of_floats": (F.arg_list_s, ([1.5, -0.7, 0.3],), 0),
        "list_of_arrays": (F.arg_list_a, ([W.copy(), 2 * W],), 0),
        "dict_of_arrays": (F.arg_dict_a, ({"W": W.copy(), "b": b.copy(), "scale": 1.5}, x3),
                           (0, 1)),
        "dict_by_name": (F.arg_dict_a, ({"W": W.copy(), "b": b.copy(), "scale": 1.5}, x3),
                         "p"),
        "nested": (F.arg_nested, ({"layers": [{"w": 1.5}, {"w": -2.0}],
                                   "v": (0.5, np.array([1.0, -2.0]))},), 0),
        "dataclass": (F.arg_dataclass_a, (F.DParams(W.copy(), b.copy()), x3), (0, 1)),
        "dataclass_scalars": (F.arg_dataclass_scalars, (F.Scalars(1.5, -0.4), 0.7), (0, 1)),
        "plain_object": (F.arg_dataclass_a, (F.Params(W.copy(), b.copy()), x3), 0),
    }[name]


NAMES = ["tuple_of_floats", "tuple_of_arrays", "list_of_floats", "list_of_arrays",
         "dict_of_arrays", "dict_by_name", "nested", "dataclass", "dataclass_scalars",
         "plain_object"]


@pytest.mark.parametrize("policy", policies())
@pytest.mark.parametrize("name", NAMES)
def test_container_gradient_has_the_argument_structure(name, policy):
    fn, args, wrt = args_for(name)
    check_grad(fn, args, wrt=wrt, policy=policy)


def test_float32_arrays_in_a_dict_keep_their_dtype():
    p = {"W": W.astype(np.float32), "b": b.astype(np.float32), "scale": 1.5}
    g = grad(F.arg_dict_a)(p, x3)
    assert g["W"].dtype == np.float32 and g["b"].dtype == np.float32
    assert type(g["scale"]) is float
    g64 = grad(F.arg_dict_a)({k: np.asarray(v, dtype=float) if k != "scale" else v
                              for k, v in p.items()}, x3)
    np.testing.assert_allclose(g["W"], g64["W"], rtol=1e-5)


def test_nested_structure_exact():
    p = {"layers": [{"w": 1.5}, {"w": -2.0}], "v": (0.5, np.array([1.0, -2.0]))}
    g = grad(F.arg_nested)(p)
    assert g["layers"][0]["w"] == pytest.approx(-2.0)
    assert g["layers"][1]["w"] == pytest.approx(1.5)
    assert g["v"][0] == pytest.approx(5.0)
    np.testing.assert_allclose(g["v"][1], [1.0, -2.0])
    assert type(g["layers"]) is list and type(g["v"]) is tuple


def test_value_and_grad_with_a_dict_argument():
    p = {"W": W.copy(), "b": b.copy(), "scale": 1.5}
    value, g = value_and_grad(F.arg_dict_a)(p, x3)
    assert value == pytest.approx(F.arg_dict_a(p, x3), rel=1e-15)
    assert_like(g, p)


def test_container_argument_is_not_modified():
    p = {"W": W.copy(), "b": b.copy(), "scale": 1.5}
    before = {k: np.copy(v) for k, v in p.items()}
    g = grad(F.arg_dict_a)(p, x3)
    for k in p:
        np.testing.assert_array_equal(p[k], before[k])
    assert g["W"] is not p["W"] and g["b"] is not p["b"]


def test_integer_and_string_leaves_get_zero_gradient():
    p = {"scale": 2.0, "w": np.arange(4.0), "n": 2, "name": "abc"}
    g = grad(F.arg_dict_with_ints)(p)
    assert list(g) == list(p)
    assert g["scale"] == pytest.approx(1.0)
    np.testing.assert_array_equal(g["w"], [2.0, 2.0, 0.0, 0.0])
    assert is_zero(g["n"]) and is_zero(g["name"])
    assert p["n"] == 2 and p["name"] == "abc"


def test_dataclass_with_int_and_str_fields():
    p = F.Config(np.arange(3.0), 2.0, 2, "ab")
    g, dx = grad(F.arg_config, wrt=(0, 1))(p, np.ones(3))
    assert type(g) is F.Config
    np.testing.assert_array_equal(g.w, [4.0, 4.0, 0.0])
    assert g.scale == pytest.approx((0.0 + 1.0) * 2)    # sum(w[:n] x[:n]) len(name)
    np.testing.assert_array_equal(dx, [0.0, 4.0, 0.0])
    assert is_zero(g.n) and is_zero(g.name)


# ---- vjp ----------------------------------------------------------------------------------
@pytest.mark.parametrize("policy", policies())
def test_vjp_with_a_dict_argument(policy):
    p = {"W": W.copy(), "b": b.copy()}
    check_vjp(F.arg_vjp_dict, (p, x3), wrt=(0, 1), policy=policy)


@pytest.mark.parametrize("policy", policies())
def test_vjp_with_a_tuple_of_arrays(policy):
    p = (np.array([0.5, -1.0]), np.array([0.2, 0.3]))
    check_vjp(F.arg_vjp_tuple, (p, np.array([1.5, -0.5])), wrt=(0, 1), policy=policy)


@pytest.mark.parametrize("policy", policies())
def test_vjp_with_a_dataclass(policy):
    cots = check_vjp(F.arg_vjp_dataclass, (F.DParams(W.copy(), b.copy()), x3), wrt=(0,),
                     policy=policy)
    assert type(cots[0]) is F.DParams


# ---- known bug: ragged containers ------------------------------------------------------
RAGGED = ("bug: grad/vjp call np.iscomplexobj on each wrt argument, which converts it with "
          "np.asarray: a list/tuple mixing floats and arrays, or arrays of different shapes, "
          "raises ValueError (inhomogeneous shape) before anything is differentiated")


@pytest.mark.parametrize("policy", policies())
def test_list_of_arrays_of_different_shapes(policy):
    p = [np.array([1.0, 2.0]), np.array([[3.0, -1.0], [0.5, 0.25]])]
    check_grad(F.arg_list_ragged_a, (p,), wrt=0, policy=policy)


@pytest.mark.parametrize("policy", policies())
def test_tuple_of_float_and_array(policy):
    check_grad(F.arg_mixed_tuple, ((1.5, np.array([1.0, -2.0, 0.5])),), wrt=0, policy=policy)


@pytest.mark.parametrize("policy", policies())
def test_tuple_of_arrays_of_different_shapes(policy):
    check_grad(F.arg_tuple_a, ((W.copy(), np.array([0.5, -1.0, 2.0])),), wrt=0, policy=policy)


def test_vjp_with_a_tuple_of_array_and_float():
    check_vjp(F.arg_vjp_tuple, ((np.array([0.5, -1.0]), 0.25), np.array([1.5, -0.5])),
              wrt=(0,))
