"""Attribute reads on plain objects and dataclasses, methods of user
objects called from the loss (self.W inside model.forward(x)), ndarray methods
(sum, mean(axis=0), .T, reshape, dot), and x.shape, len(x), x.ndim, x.size as
non-differentiable values."""
import numpy as np
import pytest

from transform import grad

from . import funcs as F
from .check import assert_like, check_grad, policies

X = 0.7
A = np.array([0.3, -0.8, 1.1])
RNG = np.random.default_rng(11)
W = RNG.standard_normal((2, 3)) * 0.6
b = RNG.standard_normal(2) * 0.3
M23 = RNG.standard_normal((2, 3))
M32 = RNG.standard_normal((3, 2))
V6 = RNG.standard_normal(6)


def plain():
    return F.Params(W.copy(), b.copy())


def model():
    return F.Model(W.copy(), b.copy())


@pytest.mark.parametrize("policy", policies())
def test_attribute_reads_on_a_plain_object(policy):
    """A plain object's gradient is a dict from attribute name to gradient."""
    g = check_grad(F.attr_read_a, (plain(), A), wrt=(0, 1), policy=policy)
    assert set(g[0]) == {"W", "b"}


@pytest.mark.parametrize("policy", policies())
def test_attribute_reads_on_a_dataclass(policy):
    g = check_grad(F.attr_read_a, (F.DParams(W.copy(), b.copy()), A), wrt=(0, 1),
                   policy=policy)
    assert type(g[0]) is F.DParams


@pytest.mark.parametrize("policy", policies())
def test_attribute_reads_scalar_dataclass(policy):
    g = check_grad(F.attr_read_s, (F.Scalars(1.5, -0.4), X), wrt=(0, 1), policy=policy)
    assert type(g[0]) is F.Scalars and type(g[0].a) is float


@pytest.mark.parametrize("policy", policies())
def test_attribute_only_wrt_the_input(policy):
    check_grad(F.attr_read_a, (plain(), A), wrt=1, policy=policy)


@pytest.mark.parametrize("policy", policies())
def test_method_reading_self_attributes(policy):
    check_grad(F.method_forward_a, (model(), A), wrt=(0, 1), policy=policy)


@pytest.mark.parametrize("policy", policies())
def test_method_calling_a_method_with_default_and_keyword(policy):
    check_grad(F.method_calls_method_a, (model(), A), wrt=(0, 1), policy=policy)


@pytest.mark.parametrize("policy", policies())
def test_dataclass_methods(policy):
    g = check_grad(F.method_loss_a, (F.Linear(W.copy(), b.copy()), A), wrt=(0, 1),
                   policy=policy)
    assert type(g[0]) is F.Linear


@pytest.mark.parametrize("policy", policies())
def test_dataclass_method_scalar(policy):
    check_grad(F.method_scalar_s, (F.Scalars(1.5, -0.4), X), wrt=(0, 1), policy=policy)


def test_method_gradient_exact():
    m = F.Scalars(1.5, -0.4)
    # f = (a x + b x^2) a
    ds, dx = grad(F.method_scalar_s, wrt=(0, 1))(m, X)
    assert ds.a == pytest.approx(2 * m.a * X + m.b * X * X, rel=1e-12)
    assert ds.b == pytest.approx(X * X * m.a, rel=1e-12)
    assert dx == pytest.approx((m.a + 2 * m.b * X) * m.a, rel=1e-12)


@pytest.mark.parametrize("policy", policies())
def test_dataclass_holding_a_list_of_dataclasses(policy):
    """self.layers is a list of dataclasses iterated inside a method."""
    rng = np.random.default_rng(4)
    layers = [F.DParams(rng.standard_normal((3, 3)) * 0.5, rng.standard_normal(3) * 0.2)
              for _ in range(2)]
    g = check_grad(F.net_loss_a, (F.Net(layers), A), wrt=(0, 1), policy=policy)
    assert type(g[0]) is F.Net and type(g[0].layers) is list
    assert all(type(layer) is F.DParams for layer in g[0].layers)


@pytest.mark.parametrize("policy", policies())
def test_dataclass_inside_a_dataclass(policy):
    g = check_grad(F.wrapped_loss_a, (F.Wrapped(F.DParams(W.copy(), b.copy()), 1.5), A),
                   wrt=(0, 1), policy=policy)
    assert type(g[0].inner) is F.DParams and type(g[0].scale) is float


NDARRAY_METHODS = {
    "sum": (F.ndarray_sum_a, (M23,), 0),
    "mean_axis0": (F.ndarray_mean_axis_a, (M23,), 0),
    "T": (F.ndarray_T_a, (M23, RNG.standard_normal(2)), (0, 1)),
    "reshape": (F.ndarray_reshape_a, (V6,), 0),
    "dot": (F.ndarray_dot_a, (M23, M32), (0, 1)),
}


@pytest.mark.parametrize("policy", policies())
@pytest.mark.parametrize("name", list(NDARRAY_METHODS))
def test_ndarray_methods(name, policy):
    fn, args, wrt = NDARRAY_METHODS[name]
    check_grad(fn, args, wrt=wrt, policy=policy)


@pytest.mark.parametrize("policy", policies())
def test_shape_len_ndim_are_constants(policy):
    check_grad(F.shape_len_ndim_a, (M23,), wrt=0, policy=policy)


def test_shape_len_ndim_exact():
    # f = 2 sum(x^2) + 2 * 2 * sum(x) / 3
    g = grad(F.shape_len_ndim_a)(M23)
    np.testing.assert_allclose(g, 4 * M23 + 4.0 / 3.0, rtol=1e-12)


@pytest.mark.parametrize("policy", policies())
def test_size_from_a_helper_is_a_constant(policy):
    g = check_grad(F.size_in_helper_a, (M23,), wrt=0, policy=policy)
    np.testing.assert_allclose(g, np.full((2, 3), 1 / 6), rtol=1e-12)


def test_object_is_not_modified():
    p = plain()
    W0, b0 = p.W.copy(), p.b.copy()
    g = grad(F.attr_read_a, wrt=0)(p, A)
    np.testing.assert_array_equal(p.W, W0)
    np.testing.assert_array_equal(p.b, b0)
    assert g["W"] is not p.W
    assert_like(g["W"], p.W)
