"""A function given other code or other defaults after its first gradient: the compiled
rule copied the old ones, so its guards (transform/emit/guards.py) compare the code and
both defaults by identity and the rule is compiled again, from the source of the code
the function now has (transform/frontend/source_check.py reads it per code object).
Every case against finite differences under every policy, before and after the change,
through grad's fast path, its general path (a keyword-only parameter), a callee, vjp
and value_and_grad."""
import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad
from tests.gradcheck import POLICIES
from transform.public import cache
from transform import grad, value_and_grad, vjp


def fived(x):
    return np.sin(x) * 5.0


def fd(f, x):
    return numerical_grad(f, [x], 0)


def make_scaled():
    def scaled(x, s=1.0):
        return np.sin(x) * s
    return scaled


def make_keyword_only():
    def scaled(x, *, s=1.0):
        return np.sin(x) * s
    return scaled


def make_caller():
    def inner(v, s=1.0):
        return np.sin(v) * s

    def outer(x):
        return inner(x) + 0.0
    return inner, outer


@pytest.mark.parametrize("policy", POLICIES)
def test_new_code(policy):
    def f(x):
        return np.sin(x) * 2.0
    g = grad(f, policy=policy)
    assert_close(g(0.3), fd(f, 0.3))
    f.__code__ = fived.__code__
    assert_close(g(0.3), fd(fived, 0.3))
    assert_close(g(0.3), 5.0 * np.cos(0.3))


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("make", [make_scaled, make_keyword_only])
def test_new_defaults(policy, make):
    f = make()
    g = grad(f, policy=policy)
    assert_close(g(0.3), np.cos(0.3))
    if f.__defaults__ is not None:
        f.__defaults__ = (3.0,)
    else:
        f.__kwdefaults__ = {"s": 3.0}
    assert_close(g(0.3), fd(f, 0.3))
    assert_close(g(0.3), 3.0 * np.cos(0.3))


@pytest.mark.parametrize("policy", POLICIES)
def test_a_callees_new_defaults(policy):
    inner, outer = make_caller()
    g = grad(outer, policy=policy)
    assert_close(g(0.3), np.cos(0.3))
    inner.__defaults__ = (4.0,)
    assert_close(g(0.3), fd(outer, 0.3))
    assert_close(g(0.3), 4.0 * np.cos(0.3))


@pytest.mark.parametrize("policy", POLICIES)
def test_vjp_and_value_and_grad_see_the_change(policy):
    f = make_scaled()
    x = np.array([0.1, 0.7])
    value_and_grad(f, policy=policy)(x[0])
    vjp(f, x, policy=policy)
    f.__defaults__ = (2.5,)
    value, dx = value_and_grad(f, policy=policy)(0.3)
    assert_close(value, 2.5 * np.sin(0.3))
    assert_close(dx, 2.5 * np.cos(0.3))
    out, pullback = vjp(f, x, policy=policy)
    assert_close(pullback(np.ones(2))[0], 2.5 * np.cos(x))


def test_unchanged_functions_keep_their_rule():
    f = make_scaled()
    g = grad(f)
    g(0.3)
    rules = cache.rules_of(f)
    f.__defaults__ = f.__defaults__             # the same tuple: nothing changed
    g(0.3)
    assert cache.rules_of(f) == rules
