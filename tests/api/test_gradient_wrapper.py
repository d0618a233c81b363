"""grad's per-call path (transform/public/gradient_function.py): what it resolves once
and what it still checks on every call. The inline checks take float arrays, float
scalar types and plain real arguments without a call; everything else gets the full
check, so every refusal of the general path still happens. Gradients against finite
differences under every policy; types of the gradients; a default assigned after the
first call is used.
"""
import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_grad, rng
from transform import TransformError, grad, value_and_grad
from transform.public.boundary import materialise
from transform.public.gradient_function import plainly_real


def scaled(x, s=2.0):
    return np.sum(x * x) * s


def three(a, b, c, scale=1.0):
    return np.sum(a * b) + c * scale


def takes_real(x, z):
    return np.sum(x * np.max(z))       # no complex value of its own: real_arguments


def twice(x):
    return x * 2.0


@pytest.mark.parametrize("policy", POLICIES)
def test_keywords_and_defaults_against_finite_differences(policy):
    r = rng("gradient wrapper", policy)
    a, b = r.normal(size=3), r.normal(size=3)
    check_grad(three, [a, b, 0.7], wrt=(0, 2), policy=policy)
    check_grad(three, [a, b, 0.7, -1.5], wrt=(0, 2, 3), policy=policy)
    check_grad(three, [a, b, 0.7], wrt=(0, 2), policy=policy, kwargs={"scale": 3.0})
    check_grad(scaled, [a], wrt=(0,), policy=policy)


@pytest.mark.parametrize("policy", POLICIES)
def test_a_default_assigned_after_the_first_call_is_used(policy):
    def f(x, s=1.0):
        return x * s
    g = grad(f, policy=policy)
    assert g(2.0) == 1.0
    f.__defaults__ = (3.0,)
    assert g(2.0) == 3.0 and g(2.0, 5.0) == 5.0 and g(2.0, s=4.0) == 4.0
    f.__defaults__ = None                       # no default: the general path says so
    with pytest.raises(TypeError):
        g(2.0)


@pytest.mark.parametrize("kind", [float, np.float64, np.float32, np.float16])
def test_a_float_scalar_gets_a_gradient_of_its_type(kind):
    g = grad(twice)(kind(1.5))
    assert type(g) is kind and g == 2.0
    dx, ds = grad(scaled, wrt=(0, 1))(np.ones(2, dtype=np.float32), kind(2.0))
    assert type(ds) is kind and ds == 2.0 and dx.dtype == np.float32


@pytest.mark.parametrize("cotangent,like,expected", [
    (np.float64(2.5), 1.0, float), (2.5, np.float32(1.0), np.float32),
    (np.float32(2.5), np.float64(1.0), np.float64), (2.5, 1.0, float),
    (np.float16(2.5), 1.0, float)])
def test_materialise_gives_a_real_scalar_the_type_of_its_argument(cotangent, like, expected):
    got = materialise(cotangent, like)
    assert type(got) is expected and got == 2.5


def test_materialise_keeps_the_general_path_for_other_cotangents():
    assert type(materialise(np.array(2.5), 1.0)) is float
    assert materialise(2.5 + 1.0j, 1.0) == 2.5 and type(materialise(None, 1.0)) is float


@pytest.mark.parametrize("value", [3, np.int64(3), True, "s", np.array([1, 2]),
                                   np.array([1.0 + 1.0j]), 1.0 + 2.0j, [1, 2]])
def test_every_refusal_of_a_wrt_value_still_happens(value):
    with pytest.raises(TypeError):
        grad(twice)(value)


@pytest.mark.parametrize("z", [np.array([1.0 + 2.0j, 3.0]), 1.0 + 2.0j, [1.0, 2.0j],
                               (np.array([1.0j]),), {"k": 1.0j}])
def test_a_complex_argument_of_a_rule_for_real_ones_is_refused(z):
    x = np.ones(2)
    assert grad(takes_real)(x, np.array([1.0, 2.0]))[0] == 2.0
    with pytest.raises(TransformError, match="assumes real arguments"):
        grad(takes_real)(x, z)


@pytest.mark.parametrize("args,plain", [
    ((np.ones(2), 1.0, 2, True, None, np.float32(1.0), np.int64(3)), True),
    ((np.ones(2, dtype=complex),), False), ((1.0j,), False), ((np.complex64(1.0),), False),
    (([1.0],), False), ((np.ones(2).view(np.ma.MaskedArray),), False)])
def test_plainly_real(args, plain):
    assert plainly_real(args) is plain


def test_value_and_grad_shares_the_path():
    v, (da, dc) = value_and_grad(three, wrt=(0, 2))(np.ones(2), np.full(2, 3.0), 0.5)
    assert v == 6.5 and list(da) == [3.0, 3.0] and dc == 1.0 and type(dc) is float
