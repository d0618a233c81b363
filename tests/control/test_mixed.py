"""Constructs combined -- branches in loops in branches, while inside
for with break, continue in inner loops, early return from a loop over rows,
conditional expressions building tuples; every policy."""
import math

import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_grad

pytestmark = pytest.mark.parametrize("policy", POLICIES)


def mix1(x, n):
    s = x
    for i in range(n):
        if i % 2 == 0:
            k = 0
            while k < i:
                s = s * 0.9 + math.sin(s)
                k += 1
                if s > 3.0:
                    break
        else:
            for j in range(3):
                if j == 1:
                    continue
                s = s + x * j
    return s


def mix2(W, X):
    h = np.zeros(W.shape[0])
    for t, x in enumerate(X):
        z = W @ x
        if np.sum(z) > 0:
            h = np.tanh(h + z)
        else:
            for k in range(2):
                h = h * 0.5 + z * k
        if np.linalg.norm(h) > 5.0:
            return np.sum(h)
    return np.sum(h * h)


def mix3(x, n):
    s = 0.0
    i = 0
    while i < n:
        i += 1
        t = x * i if i % 3 else -x
        for j in range(i):
            if j > 2:
                break
            s += t * math.cos(s)
    return s


def mix4(x, y, n):
    a, b = x, y
    for i in range(n):
        a, b = (b, a + b) if a < b else (a * 0.5, b)
    return a * b


@pytest.mark.parametrize("n", [0, 1, 2, 5])
def test_while_and_for_in_branches_of_a_loop(policy, n):
    check_grad(mix1, [0.5, n], policy=policy)


@pytest.mark.parametrize("n", [0, 1, 5])
@pytest.mark.parametrize("scale", [1.0, 5.0], ids=["small", "large"])
def test_loop_in_branch_and_early_return_over_rows(policy, n, scale):
    rng = np.random.default_rng(0)
    check_grad(mix2, [rng.normal(size=(3, 2)), scale * rng.normal(size=(n, 2))],
               policy=policy)


@pytest.mark.parametrize("n", [0, 1, 6])
def test_while_with_ifexp_and_inner_break(policy, n):
    check_grad(mix3, [0.4, n], policy=policy)


@pytest.mark.parametrize("n", [0, 1, 5])
def test_tuple_swap_by_conditional_expression(policy, n):
    check_grad(mix4, [0.3, 0.6, n], policy=policy)
