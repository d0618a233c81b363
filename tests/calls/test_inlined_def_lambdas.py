"""A lambda (or def) made inside a nested def and returned by it, closing over the def's
parameter, which depends on the argument being differentiated:

    def power(k):
        return lambda z: z ** k
    return np.sum(power(x[0])(x))

The nested def is inlined (`power_k = x[0]`); the lambda, reading `power_k`, is a closure
record through which the derivative reaches `power_k` (it was kept as a constant function
before: d/dx[0] silently lost the `k` path). Checked against central differences in
grad, plain lowering, jvp and hvp's three routes."""
import numpy as np
import pytest

from tests.fd import assert_close, directional, numerical_grad, numerical_jvp
from transform import TransformError, grad, hvp, jvp


def apply(fn, v):
    return fn(v)


def power_of_own_entry(x):
    def power(k):
        return lambda z: z ** k
    return np.sum(power(x[0])(x)) + np.sum(power(2.0)(x))


def returned_def(x):
    def scale(k):
        def inner(z):
            return z * k
        return inner
    return np.sum(scale(x[1])(x) ** 2)


def in_a_list_and_a_dict(x):
    def mk(k):
        return lambda z: z * k
    fs = [mk(x[0]), mk(x[2])]
    d = {"a": mk(x[1])}
    return np.sum(fs[0](x) + fs[1](x) * d["a"](x))


def given_to_a_helper(x):
    def mk(k):
        return lambda z: np.sin(z * k)
    return np.sum(apply(mk(x[0]), x))


def given_to_map(x):
    def mk(k):
        return lambda z: z * k
    return sum(map(mk(x[0]), [x[1], x[2]]))


def read_directly(x):
    c = x[0]
    g = lambda z: z * c          # noqa: E731
    return np.sum(g(x))


def key_function(x):
    c = x[0]
    ys = sorted([x[1], x[2]], key=lambda v: v * c)
    return ys[0] * c


def two_levels(x):
    def outer(a):
        def power(k):
            return lambda z: z ** k + a
        return power(a * 2.0)
    return np.sum(outer(x[0])(x))


def also_a_variable_of_the_function(x):
    c = x[2] * 2.0

    def mk(k):
        return lambda z: z * k * c
    return np.sum(mk(x[0])(x))


CASES = [power_of_own_entry, returned_def, two_levels, also_a_variable_of_the_function,
         in_a_list_and_a_dict, given_to_a_helper, given_to_map, read_directly, key_function]
X = np.array([1.3, 0.7, 1.1])
V = np.array([0.3, -0.5, 0.9])


@pytest.mark.parametrize("fn", CASES, ids=lambda f: f.__name__)
@pytest.mark.parametrize("lowering", ["gast", "plain"])
def test_grad(fn, lowering):
    assert_close(grad(fn, lowering=lowering)(X), numerical_grad(fn, (X,), 0))


@pytest.mark.parametrize("fn", CASES, ids=lambda f: f.__name__)
def test_jvp(fn):
    assert_close(jvp(fn, (X,), (V,))[1], directional(fn, (X,), 0, V))


@pytest.mark.parametrize("fn", CASES[:4], ids=lambda f: f.__name__)
@pytest.mark.parametrize("route", ["forward_over_reverse", "reverse_over_forward", "auto"])
def test_hvp(fn, route):
    want = numerical_jvp(lambda y: numerical_grad(fn, (y,), 0, eps=1e-5), (X,), 0, V, eps=1e-4)
    np.testing.assert_allclose(hvp(fn, (X,), (V,), route=route), want, rtol=1e-4, atol=1e-4)


def rebound_in_the_def(x):
    def power(k):
        g = lambda z: z ** k     # noqa: E731
        k = k + 1.0
        return g
    return np.sum(power(x[0])(x))


def function_variable_rebound(x):
    c = x[2] * 2.0

    def mk(k):
        return lambda z: z * k * c
    g = mk(x[0])
    c = x[1]
    return np.sum(g(x))


def outer_def_variable_rebound(x):
    def outer(a):
        def power(k):
            return lambda z: z ** k + a
        g = power(a * 2.0)
        a = a + 1.0
        return g
    return np.sum(outer(x[0])(x))


@pytest.mark.parametrize("fn, name", [(rebound_in_the_def, "k"), (function_variable_rebound, "c"),
                                      (outer_def_variable_rebound, "a")])
def test_a_variable_bound_again_is_refused_at_the_lambda(fn, name):
    with pytest.raises(TransformError, match=rf"test_inlined_def_lambdas.py:\d+:\d+: the "
                                             rf"lambda reads `{name}`, bound again"):
        grad(fn)(X)
