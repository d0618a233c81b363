"""While loops with any condition, including conditions that depend on
differentiated values; zero, one and many iterations; every policy."""
import math

import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_grad

pytestmark = pytest.mark.parametrize("policy", POLICIES)


def while_counter(x, n):
    i = 0
    s = x
    while i < n:
        s = s * math.sin(s) + x
        i = i + 1
    return s


def while_on_value(x):
    s = x
    while s < 10.0:
        s = s * 1.5 + x
    return s


def while_on_value_shrinking(x, tol):
    s = x
    k = 0
    while abs(s) > tol:
        s = s * 0.5 - 0.01 * x
        k += 1
    return s * k


def while_two_conditions(x, n):
    i = 0
    s = x
    while i < n and s < 5.0:
        s = s * s + 0.5
        i += 1
    return s


def while_array(w, x):
    h = x
    k = 0
    while np.linalg.norm(h) < 4.0:
        h = h * w + 0.1
        k += 1
    return np.sum(h) + k


def while_nested(x, n):
    i = 0
    s = 0.0
    while i < n:
        j = 0
        while j < i:
            s = s + x * math.cos(s + j)
            j += 1
        i += 1
    return s


def while_with_for_inside(x, n):
    s = x
    k = 0
    while k < n:
        for j in range(k + 1):
            s = s * 0.9 + x * j
        k = k + 1
    return s


def for_with_while_inside(x, n):
    s = x
    for i in range(n):
        while s < 3.0:
            s = s * 2.0 + 0.1 * x
        s = s - 2.5
    return s


def while_true_with_break(x):
    s = x
    while True:
        s = s * 1.3
        if s > 5.0:
            break
    return s * x


def while_countdown(x, n):
    s = 0.0
    while n > 0:
        s = s + x ** n
        n = n - 1
    return s


@pytest.mark.parametrize("n", [0, 1, 5])
def test_while_counter(policy, n):
    check_grad(while_counter, [0.7, n], policy=policy)


@pytest.mark.parametrize("x", [11.0, 9.0, 0.5], ids=["zero", "one", "many"])
def test_while_condition_on_differentiated_value(policy, x):
    check_grad(while_on_value, [x], policy=policy)


@pytest.mark.parametrize("x", [0.05, 0.3, 3.0], ids=["zero", "one", "many"])
def test_while_shrinking_to_tolerance(policy, x):
    check_grad(while_on_value_shrinking, [x, 0.1], wrt=(0,), policy=policy)


@pytest.mark.parametrize("x,n", [(0.5, 0), (0.5, 2), (1.5, 10), (0.5, 10)])
def test_while_boolean_condition(policy, x, n):
    check_grad(while_two_conditions, [x, n], policy=policy)


@pytest.mark.parametrize("scale", [3.0, 1.0], ids=["zero", "many"])
def test_while_array_condition(policy, scale):
    w = np.array([1.3, 1.2, 1.4])
    check_grad(while_array, [w, scale * np.array([0.9, 1.0, 1.1])], policy=policy)


@pytest.mark.parametrize("n", [0, 1, 4])
def test_while_nested(policy, n):
    check_grad(while_nested, [0.4, n], policy=policy)


@pytest.mark.parametrize("n", [0, 3])
def test_while_with_for_inside(policy, n):
    check_grad(while_with_for_inside, [0.4, n], policy=policy)


@pytest.mark.parametrize("n", [0, 1, 3])
def test_for_with_while_inside(policy, n):
    check_grad(for_with_while_inside, [0.4, n], policy=policy)


@pytest.mark.parametrize("x", [6.0, 0.7], ids=["one", "many"])
def test_while_true_with_break(policy, x):
    check_grad(while_true_with_break, [x], policy=policy)


@pytest.mark.parametrize("n", [0, 1, 4])
def test_while_countdown_argument_rebound(policy, n):
    check_grad(while_countdown, [1.2, n], policy=policy)
