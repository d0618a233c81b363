"""Break, continue and return anywhere, including inside nested loops,
hit and not hit; scalar and array code; every policy."""
import math

import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_grad

pytestmark = pytest.mark.parametrize("policy", POLICIES)


def rng(seed):
    return np.random.default_rng(seed)


# ---------------------------------------------------------------- break
def break_on_index(x, n, stop):
    s = 0.0
    for i in range(n):
        if i == stop:
            break
        s = s + x * math.sin(s + i)
    return s


def break_on_value(x, n):
    s = x
    for i in range(n):
        s = s * 1.5 + 0.1
        if s > 3.0:
            break
    return s * x


def break_first_statement(x, n):
    s = x
    for i in range(n):
        if s > 2.0:
            break
        s = s * s + 0.2
    return s


def break_array_rows(X, w):
    s = 0.0
    for row in X:
        v = np.sum(row * w)
        if v > 1.0:
            break
        s = s + v * v
    return s


def break_inner_only(x, n, m):
    s = 0.0
    for i in range(n):
        for j in range(m):
            if j > i:
                break
            s = s + x * math.cos(s + j)
        s = s * 0.9
    return s


def break_outer_after_inner(x, n):
    s = x
    for i in range(n):
        for j in range(3):
            s = s + 0.1 * math.sin(s * j)
        if s > 1.0:
            break
        s = s * 1.2
    return s


def break_in_three_levels(x, n):
    s = x
    for i in range(n):
        for j in range(n):
            for k in range(n):
                if k > j:
                    break
                s = s + 0.05 * math.sin(s + i * j + k)
            if j > i:
                break
    return s


@pytest.mark.parametrize("stop", [0, 2, 10], ids=["immediately", "midway", "not-hit"])
def test_break_on_index(policy, stop):
    check_grad(break_on_index, [0.7, 5, stop], policy=policy)


@pytest.mark.parametrize("x", [0.5, 4.0, 0.01], ids=["hit-late", "hit-first", "not-hit"])
def test_break_on_value(policy, x):
    check_grad(break_on_value, [x, 4], policy=policy)


@pytest.mark.parametrize("x", [2.5, 0.5], ids=["hit-first", "later"])
def test_break_first_statement(policy, x):
    check_grad(break_first_statement, [x, 5], policy=policy)


@pytest.mark.parametrize("scale", [1.0, 0.01], ids=["hit", "not-hit"])
def test_break_over_rows(policy, scale):
    X = scale * np.array([[0.1, 0.2], [0.3, 0.1], [2.0, 1.0], [0.2, 0.2]])
    check_grad(break_array_rows, [X, np.array([0.5, 0.8])], policy=policy)


@pytest.mark.parametrize("n,m", [(3, 4), (2, 1), (0, 3)], ids=str)
def test_break_inner_loop_only(policy, n, m):
    check_grad(break_inner_only, [0.6, n, m], policy=policy)


@pytest.mark.parametrize("x", [0.9, 0.05], ids=["hit", "not-hit"])
def test_break_outer_after_inner_loop(policy, x):
    check_grad(break_outer_after_inner, [x, 4], policy=policy)


@pytest.mark.parametrize("n", [0, 1, 3])
def test_break_in_three_levels(policy, n):
    check_grad(break_in_three_levels, [0.4, n], policy=policy)


# ---------------------------------------------------------------- continue
def continue_on_index(x, n):
    s = 0.0
    for i in range(n):
        if i % 2 == 1:
            continue
        s = s + x * math.sin(s + i)
    return s


def continue_on_value(x, n):
    s = x
    for i in range(n):
        t = math.sin(s * (i + 1))
        if t < 0:
            continue
        s = s + t * x
    return s


def continue_array(X, w):
    s = 0.0
    for row in X:
        if np.sum(row) < 0:
            continue
        s = s + np.sum(np.tanh(row * w))
    return s


def continue_inner(x, n):
    s = x
    for i in range(n):
        for j in range(n):
            if j == i:
                continue
            s = s + 0.1 * math.cos(s * j + i)
        s = s * 0.95
    return s


def continue_and_break(x, n):
    s = 0.0
    for i in range(n):
        if i == 1:
            continue
        if i == 4:
            break
        s = s + x ** (i + 1)
    return s


def continue_in_while(x, n):
    i = 0
    s = x
    while i < n:
        i += 1
        if i % 3 == 0:
            continue
        s = s * 0.8 + x * math.sin(s)
    return s


@pytest.mark.parametrize("n", [0, 1, 6])
def test_continue_on_index(policy, n):
    check_grad(continue_on_index, [0.7, n], policy=policy)


@pytest.mark.parametrize("x", [0.5, 2.0])
def test_continue_on_value(policy, x):
    check_grad(continue_on_value, [x, 6], policy=policy)


@pytest.mark.parametrize("sign", [1.0, -1.0], ids=["some", "all-skipped"])
def test_continue_array(policy, sign):
    X = np.array([[0.3, 0.2], [-1.0, 0.1], [0.5, 0.4]])
    if sign < 0:
        X = -np.abs(X)
    check_grad(continue_array, [X, np.array([0.7, -0.3])], policy=policy)


@pytest.mark.parametrize("n", [0, 1, 3])
def test_continue_inner_loop(policy, n):
    check_grad(continue_inner, [0.4, n], policy=policy)


@pytest.mark.parametrize("n", [0, 2, 3, 7])
def test_continue_and_break(policy, n):
    check_grad(continue_and_break, [0.8, n], policy=policy)


@pytest.mark.parametrize("n", [0, 2, 7])
def test_continue_in_while(policy, n):
    check_grad(continue_in_while, [0.6, n], policy=policy)


# ---------------------------------------------------------------- return


def return_in_nested_loop_nothing_after(x, n):
    for i in range(n):
        for j in range(n):
            x = x * 1.5
            if x > 2.0:
                return x * x
    return x
def return_in_loop(x, n):
    s = x
    for i in range(n):
        s = s * 1.4 + 0.1
        if s > 2.0:
            return s * x
    return s + x


def return_in_nested_loop(x, n):
    s = x
    for i in range(n):
        for j in range(n):
            s = s + 0.3 * math.sin(s + j)
            if s > 2.5:
                return s * s
        s = s * 1.1
    return -s


def return_in_three_levels(x, n):
    s = x
    for i in range(n):
        for j in range(2):
            for k in range(2):
                s = s * 1.2 + 0.1 * k
                if s > 3.0:
                    return s * x
    return s


def return_in_while(x):
    s = x
    while True:
        s = s * 1.5
        if s > 4.0:
            return s + x
        s = s + 0.1


def return_in_branch_before_loop(x, n):
    if x < 0:
        return x * x
    s = x
    for i in range(n):
        s = s * math.cos(s)
    return s


def return_array_in_loop(X, w):
    h = w
    for row in X:
        h = np.tanh(row * h + 0.5)
        if np.sum(h) < 0:
            return np.sum(h * h)
    return np.sum(h)


@pytest.mark.parametrize("x", [1.0, 2.5, 0.5], ids=["late", "first", "never"])
def test_return_in_loop(policy, x):
    check_grad(return_in_loop, [x, 3], policy=policy)


@pytest.mark.parametrize("x", [0.6, 0.95, 1.5], ids=["second-outer", "first-outer",
                                                   "first-iteration"])
def test_return_in_nested_loop_hit(policy, x):
    check_grad(return_in_nested_loop_nothing_after, [x, 2], policy=policy)


def test_return_in_nested_loop_never_hit(policy):
    check_grad(return_in_nested_loop_nothing_after, [0.1, 2], policy=policy)


@pytest.mark.parametrize("x", [0.5, 1.8, 0.01], ids=["later", "early", "never"])
def test_return_in_nested_loop(policy, x):
    n = 3 if x > 0.1 else 1
    check_grad(return_in_nested_loop, [x, n], policy=policy)


@pytest.mark.parametrize("x,n", [(0.5, 4), (0.5, 1), (2.9, 2)], ids=["hit", "never", "first"])
def test_return_in_three_levels(policy, x, n):
    check_grad(return_in_three_levels, [x, n], policy=policy)


@pytest.mark.parametrize("x", [3.0, 0.5], ids=["first", "later"])
def test_return_in_while_true(policy, x):
    check_grad(return_in_while, [x], policy=policy)


@pytest.mark.parametrize("x", [-0.5, 0.5])
def test_return_in_branch_before_loop(policy, x):
    check_grad(return_in_branch_before_loop, [x, 3], policy=policy)


@pytest.mark.parametrize("sign", [1.0, -1.0], ids=["hit", "never"])
def test_return_array_in_loop(policy, sign):
    X = np.array([[0.3, 0.2], [0.5, -0.1], [-2.0, -2.0]]) * sign
    check_grad(return_array_in_loop, [X, np.array([0.7, 0.4])], policy=policy)
