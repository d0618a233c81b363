"""Issue 18: misuse of the public API is reported in the user's terms (a TypeError
saying what to do, or a TransformError at the user's line), never an AttributeError,
a NumPy error, an internal compiler error or a location inside this package."""
import functools
from pathlib import Path

import numpy as np
import pytest

import transform
from transform import TransformError, adjoint_source, grad, hessian, value_and_grad, vjp
from tests.fd import numerical_grad

PACKAGE = str(Path(transform.__file__).parent)
ENTRIES = {"grad": lambda f: grad(f), "value_and_grad": lambda f: value_and_grad(f),
           "vjp": lambda f: vjp(f, 1.0), "adjoint_source": lambda f: adjoint_source(f)}


def scaled(a, x):
    return np.sum(a * x ** 2)


def weighted(x, *, k):
    return np.sum(np.sin(x) * k)


def first_twice(xs):
    return xs[0] * 2.0


def with_aux(x):
    return np.sum(x ** 2), np.ones(3)


class Model:
    def forward(self, x):
        return np.sum(x * x)


@pytest.mark.parametrize("entry", sorted(ENTRIES))
def test_a_partial_is_differentiated_as_a_call_of_its_function(entry):
    """functools.partial(scaled, 2.0): a generated function calling scaled (partials.py)
    takes x; tests/reliability/test_partials.py checks the values."""
    assert ENTRIES[entry](functools.partial(scaled, 2.0)) is not None


@pytest.mark.parametrize("entry", sorted(ENTRIES))
def test_a_number_is_not_a_function(entry):
    with pytest.raises(TypeError, match="needs a function, not int 3"):
        ENTRIES[entry](3)


@pytest.mark.parametrize("entry", sorted(ENTRIES))
def test_a_class_says_to_take_a_method(entry):
    with pytest.raises(TypeError, match=r"Model is a class.*obj\.method"):
        ENTRIES[entry](Model)


def test_a_method_of_an_instance_still_works():
    x = np.array([1.0, -2.0])
    np.testing.assert_allclose(grad(Model().forward)(x), 2 * x)


@pytest.mark.parametrize("policy", ["loop", "eager"])
def test_a_keyword_only_parameter_as_wrt(policy):
    x, k = np.array([0.3, -1.2]), np.array([2.0, 0.5])
    got = grad(weighted, wrt="k", policy=policy)(x, k=k)
    expected = numerical_grad(lambda kk: weighted(x, k=kk), (k,), 0)
    np.testing.assert_allclose(got, expected, rtol=1e-6)
    value, both = value_and_grad(weighted, wrt=(0, "k"))(x, k=k)
    np.testing.assert_allclose(both[0], np.cos(x) * k, rtol=1e-12)
    np.testing.assert_allclose(both[1], np.sin(x), rtol=1e-12)
    assert value == pytest.approx(weighted(x, k=k))


def test_a_keyword_only_parameter_misspelt():
    with pytest.raises(TypeError, match="no parameter named 'kk'"):
        grad(weighted, wrt="kk")(np.ones(2), k=np.ones(2))


@pytest.mark.parametrize("value", [[1, 2, 3], (1, 2), [np.arange(3)], {"a": 1}])
def test_a_container_of_integers_is_refused_like_an_integer(value):
    with pytest.raises(TypeError, match="of integers"):
        grad(first_twice)(value)


def test_a_container_of_floats_still_works():
    assert grad(first_twice)([1.0, 2.0]) == [2.0, 0.0]


def test_pullback_of_none():
    _, pullback = vjp(scaled, 2.0, np.ones(2))
    with pytest.raises(TypeError, match="cotangent.*not None"):
        pullback(None)


def test_a_loss_with_auxiliary_output_says_use_has_aux():
    with pytest.raises(TypeError, match=r"returned tuple of 2 values.*has_aux=True") as info:
        grad(with_aux)(np.ones(2))
    assert "inhomogeneous" not in str(info.value)


def test_the_advice_for_auxiliary_output_works():
    x = np.array([0.5, 1.5])
    g, aux = grad(with_aux, has_aux=True)(x)
    np.testing.assert_allclose(g, 2 * x)
    _, pullback = vjp(with_aux, x)             # the pair's pullback, aux's cotangent zero
    np.testing.assert_allclose(pullback((1.0, None))[0], 2 * x)


@pytest.mark.parametrize("outer", [grad, value_and_grad])
def test_grad_of_a_hessian_is_located_at_the_users_function(outer):
    # (grad of grad works: tests/higher; what hessian returns is not differentiated again)
    cube = lambda s: s ** 3                                    # noqa: E731
    line = cube.__code__.co_firstlineno
    with pytest.raises(TransformError) as info:
        outer(hessian(cube))(2.0)
    err = info.value
    assert err.filename == __file__ and err.line == line
    assert "is not supported" in err.message
    assert PACKAGE not in str(err) and err.hint
