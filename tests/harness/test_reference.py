"""The finite-difference reference (tests/fd.py) and the harness built on it
(tests/gradcheck.py) are tested themselves: against analytic derivatives, and with wrong
gradients that every check must reject (a no-op comparison fails these tests)."""
import dataclasses

import numpy as np
import pytest

from tests import fd
from tests.gradcheck import POLICIES, check_function, check_grad, check_vjp, rng
from transform import rrule, unthunk
from transform.analysis.accumulation import POLICIES as PRODUCT_POLICIES

X = np.array([0.3, -1.2, 2.0])


def cube_sum(x):
    return np.sum(x ** 3)


def product(x, y):
    return x * y


def outer_tanh(a, b):
    return np.tanh(np.outer(a, b))


# ---- finite differences against analytic derivatives -----------------------------------
def test_grad_of_an_array_argument():
    fd.assert_close(fd.numerical_grad(cube_sum, [X], 0), 3 * X ** 2, rtol=1e-7)


def test_grad_of_a_float_argument_is_a_float():
    d = fd.numerical_grad(product, [1.5, -4.0], 1)
    assert type(d) is float and abs(d - 1.5) < 1e-8


def test_grad_of_a_matrix_argument():
    W = rng("matrix").normal(size=(2, 3))
    d = fd.numerical_grad(lambda W, x: np.sum(np.sin(W @ x)), [W, X], 0)
    fd.assert_close(d, np.outer(np.cos(W @ X), X), rtol=1e-7)


def test_vjp_weights_every_output():
    a, b = np.array([0.1, 0.5]), np.array([-0.4, 0.2, 0.9])
    cot = rng("cot").normal(size=(2, 3))
    want = np.sum(cot * (1 - np.tanh(np.outer(a, b)) ** 2) * b, axis=1)
    fd.assert_close(fd.numerical_vjp(outer_tanh, [a, b], 0, cot), want, rtol=1e-7)


def test_tree_grad_finds_every_float_leaf():
    def f(p):
        return p["w"] ** 2 * p["pair"][1] + np.sum(p["pair"][0])
    p = {"w": 3.0, "pair": (np.array([1.0, 2.0]), -2.0), "n": 4}
    d = fd.numerical_tree_grad(f, [p], 0)
    assert set(d) == {("w",), ("pair", 0), ("pair", 1)}
    fd.assert_close(d[("w",)], -12.0)
    fd.assert_close(d[("pair", 0)], np.ones(2))
    fd.assert_close(d[("pair", 1)], 9.0)


def test_directional_derivative():
    v = np.array([1.0, 0.0, -2.0])
    assert abs(fd.directional(cube_sum, [X], 0, v) - np.dot(3 * X ** 2, v)) < 1e-7


def test_jvp_gives_every_output():
    t = np.array([1.0, -2.0, 0.5])
    want = np.outer(np.ones(2), 3 * X ** 2 * t)
    fd.assert_close(fd.numerical_jvp(lambda x: np.stack([x ** 3, x ** 3]), [X], 0, t), want,
                    rtol=1e-7)
    pair = fd.numerical_jvp(lambda a, b: (a * b[0], b[1]), [X, [1.5, -4.0]], 1, [2.0, 3.0])
    fd.assert_close(pair[0], 2.0 * X, rtol=1e-7)
    fd.assert_close(pair[1], 3.0, rtol=1e-7)


def test_finite_differences_leave_the_argument_unchanged():
    x = X.copy()
    fd.numerical_grad(cube_sum, [x], 0)
    np.testing.assert_array_equal(x, X)


# ---- the comparison ---------------------------------------------------------------------
@pytest.mark.parametrize("got, want", [
    (1.0, 1.1), (np.array([1.0, 2.0]), np.array([1.0, 2.1])), (np.zeros(3), np.zeros(4)),
    (np.zeros(3), 0.0), (np.nan, 1.0), (np.array([np.nan]), np.array([np.nan])),
], ids=["float", "element", "length", "broadcast", "nan", "nan-nan"])
def test_a_mismatch_fails(got, want):
    assert not fd.close(got, want)
    with pytest.raises(AssertionError):
        fd.assert_close(got, want)


def test_the_tolerance_is_relative_and_absolute():
    assert fd.close(1000.0, 1000.0 * (1 + 0.5e-5)) and not fd.close(1000.0, 1000.1)
    assert fd.close(0.0, 0.5e-7) and not fd.close(0.0, 2e-7)
    assert fd.close(np.inf, np.inf)
    assert fd.close(1.0, 1.5, rtol=0.0, atol=0.5)          # the bound itself is inside
    assert fd.close(1.0, 2.0, rtol=0.5, atol=0.0) and not fd.close(1.0, 2.0, 0.25, 0.25)


# ---- the harness rejects wrong gradients -----------------------------------------------
def half_sin(x):
    return np.sin(x)


@rrule(half_sin)
def _half_sin_rule(x):
    def pullback(g):
        return (unthunk(g) * np.cos(x) * (1 + (np.arange(np.size(x)) == 1)),)  # wrong at 1
    return np.sin(x), pullback


def uses_half_sin(x):
    return np.sum(half_sin(x) * x)


def uses_half_sin_vector(x):
    return half_sin(x) * 2.0


@dataclasses.dataclass
class Params:
    w: np.ndarray


def uses_half_sin_params(p):
    return np.sum(half_sin(p.w))


@pytest.mark.parametrize("policy", POLICIES)
def test_check_grad_rejects_a_wrong_gradient(policy):
    with pytest.raises(AssertionError, match="gradient"):
        check_grad(uses_half_sin, [X], policy=policy)


def test_check_vjp_and_check_function_reject_a_wrong_gradient():
    with pytest.raises(AssertionError):
        check_vjp(uses_half_sin_vector, [X], wrt=(0,))
    with pytest.raises(AssertionError):
        check_function(uses_half_sin_vector, [X])


def test_a_wrong_container_gradient_is_rejected():
    with pytest.raises(AssertionError, match="gradient at"):
        check_grad(uses_half_sin_params, [Params(X.copy())], wrt=0)


def test_a_right_gradient_passes():
    check_function(cube_sum, [X])
    check_function(outer_tanh, [X, X[:2]])


# ---- one policy list, one seeded generator ---------------------------------------------
def test_the_policies_are_the_products():
    assert POLICIES is PRODUCT_POLICIES and "nested" in POLICIES


def test_rng_streams_depend_only_on_their_key():
    first = rng("a", 1).normal(size=3)
    rng("b").normal(size=100)
    np.testing.assert_array_equal(rng("a", 1).normal(size=3), first)
    assert not np.array_equal(rng("a", 2).normal(size=3), first)
