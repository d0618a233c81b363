"""List comprehensions and generator expressions, including
sum(g(v) for v in xs) and the Zygote case sum((W @ xi)[0] for xi in xs);
empty, one and many elements; every policy."""
import math

import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_grad

pytestmark = pytest.mark.parametrize("policy", POLICIES)


def rng(seed):
    return np.random.default_rng(seed)


def g(v):
    return v * v + math.sin(v)


def zygote(W, xs):
    return sum((W @ xi)[0] for xi in xs)


def sum_gen_helper(x, n):
    return sum(g(x * i) for i in range(n))


def sum_gen_over_vector(xs):
    return sum(g(v) for v in xs)


def sum_gen_over_rows(W, X):
    return sum(np.sum(np.tanh(W @ row)) for row in X)


def listcomp_sum(x, n):
    ys = [x * i + math.cos(x) for i in range(n)]
    s = 0.0
    for y in ys:
        s = s + y * y
    return s


def listcomp_with_condition(x, n):
    ys = [x ** i for i in range(n) if i % 2 == 0]
    return sum(ys) * x


def listcomp_over_rows(X, w):
    parts = [np.sum(row * w) ** 2 for row in X]
    return sum(parts)


def listcomp_indexed(x, w):
    vals = [x[i] * w for i in range(len(x))]
    return vals[0] * vals[-1] + sum(vals)


def listcomp_stack(X, w):
    rows = [np.tanh(row * w) for row in X]
    return np.sum(np.array(rows) ** 2)


def gen_with_enumerate(X, w):
    return sum(i * np.sum(row * w) for i, row in enumerate(X))


def gen_with_zip(x, y):
    return sum(a * b for a, b in zip(x, y))


def gen_nested_call(W, xs):
    return sum(math.exp(-(W @ xi)[0] ** 2) for xi in xs) * 2.0


def gen_in_loop(x, n):
    s = 0.0
    for k in range(n):
        s = s + sum(x * j * s for j in range(k + 1)) * 0.1 + x
    return s


def listcomp_of_listcomp_result(x, n):
    a = [x * i for i in range(n)]
    b = [v * v for v in a]
    return sum(b) + x


@pytest.mark.parametrize("n", [1, 3, 10])
def test_zygote_case(policy, n):
    W = rng(1).normal(size=(2, 3))
    xs = [rng(10 + k).normal(size=3) for k in range(n)]
    check_grad(zygote, [W, xs], wrt=(0,), policy=policy)


@pytest.mark.parametrize("n", [1, 4])
def test_zygote_case_array_of_inputs(policy, n):
    W = rng(2).normal(size=(2, 3))
    xs = rng(3).normal(size=(n, 3))
    check_grad(zygote, [W, xs], policy=policy)


@pytest.mark.parametrize("n", [0, 1, 5])
def test_sum_generator_calling_user_function(policy, n):
    check_grad(sum_gen_helper, [0.7, n], policy=policy)


@pytest.mark.parametrize("n", [0, 1, 5])
def test_sum_generator_over_vector(policy, n):
    check_grad(sum_gen_over_vector, [rng(4).normal(size=n)], policy=policy)


@pytest.mark.parametrize("n", [1, 3])
def test_sum_generator_over_rows(policy, n):
    check_grad(sum_gen_over_rows, [rng(5).normal(size=(2, 3)), rng(6).normal(size=(n, 3))],
               policy=policy)


@pytest.mark.parametrize("n", [0, 1, 4])
def test_listcomp(policy, n):
    check_grad(listcomp_sum, [0.6, n], policy=policy)


@pytest.mark.parametrize("n", [0, 1, 6])
def test_listcomp_with_condition(policy, n):
    check_grad(listcomp_with_condition, [1.1, n], policy=policy)


@pytest.mark.parametrize("n", [0, 1, 4])
def test_listcomp_over_rows(policy, n):
    check_grad(listcomp_over_rows, [rng(7).normal(size=(n, 3)), rng(8).normal(size=3)],
               policy=policy)


@pytest.mark.parametrize("n", [1, 4])
def test_listcomp_indexed(policy, n):
    check_grad(listcomp_indexed, [rng(9).normal(size=n), 0.9], policy=policy)


@pytest.mark.parametrize("n", [1, 3])
def test_listcomp_stacked_into_array(policy, n):
    check_grad(listcomp_stack, [rng(7).normal(size=(n, 3)), rng(8).normal(size=3)],
               policy=policy)


@pytest.mark.parametrize("n", [0, 1, 4])
def test_generator_with_enumerate(policy, n):
    check_grad(gen_with_enumerate, [rng(7).normal(size=(n, 3)), rng(8).normal(size=3)],
               policy=policy)


@pytest.mark.parametrize("n", [0, 1, 4])
def test_generator_with_zip(policy, n):
    check_grad(gen_with_zip, [rng(7).normal(size=n), rng(8).normal(size=n)], policy=policy)


@pytest.mark.parametrize("n", [1, 4])
def test_generator_nested_calls(policy, n):
    check_grad(gen_nested_call, [rng(1).normal(size=(2, 3)), rng(2).normal(size=(n, 3))],
               policy=policy)


@pytest.mark.parametrize("n", [0, 1, 3])
def test_generator_inside_loop(policy, n):
    check_grad(gen_in_loop, [0.4, n], policy=policy)


@pytest.mark.parametrize("n", [0, 1, 4])
def test_chained_comprehensions(policy, n):
    check_grad(listcomp_of_listcomp_result, [0.8, n], policy=policy)
