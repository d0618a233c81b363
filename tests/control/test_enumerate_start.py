"""`enumerate(xs, start)` and `zip(..., strict=True)` in differentiated loops and
comprehensions: a literal start, a start variable (also rebound in the body: the
backward sweep must use the value the loop started from), a `start=` keyword."""
import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_grad, rng

policies = pytest.mark.parametrize("policy", POLICIES)


def literal_start(w, xs):
    s = 0.0
    for i, x in enumerate(xs, 2):
        s = s + np.sin(w * x) * i
    return s


def variable_start(w, xs, k):
    s = 0.0
    for i, x in enumerate(xs, k):
        s = s + np.sin(w * x) * i * i
    return s


def start_rebound_in_body(w, xs, k):
    s = 0.0
    for i, x in enumerate(xs, k):
        s = s + np.sin(w * x) * i
        k = k + 10
    return s + w * k


def keyword_start_active_elements(w, xs):
    s = 0.0
    for i, x in enumerate(xs, start=3):
        s = s + np.tanh(w * x) * i
    return s


def start_in_comprehension(w, xs, k):
    return sum([np.cos(w * x) * i for i, x in enumerate(xs, k)])


def zip_strict(w, xs, ys):
    s = 0.0
    for x, y in zip(xs, ys, strict=True):
        s = s + np.sin(w * x) * y
    return s


XS = np.array([1.0, 2.0, 3.0])


@policies
def test_literal_start(policy):
    check_grad(literal_start, [0.3, XS], wrt=(0,), policy=policy)


@policies
@pytest.mark.parametrize("k", [0, 2, -3])
def test_variable_start(policy, k):
    check_grad(variable_start, [0.3, XS, k], wrt=(0,), policy=policy)


@policies
def test_start_rebound_in_body(policy):
    check_grad(start_rebound_in_body, [0.3, XS, 2], wrt=(0,), policy=policy)


@policies
def test_keyword_start_with_differentiated_elements(policy):
    check_grad(keyword_start_active_elements, [0.7, rng("enum.kw").normal(size=4)],
               policy=policy)


@policies
def test_start_in_comprehension(policy):
    check_grad(start_in_comprehension, [0.3, rng("enum.comp").normal(size=3), 5],
               wrt=(0, 1), policy=policy)


@policies
def test_zip_strict_keyword(policy):
    check_grad(zip_strict, [0.3, XS, rng("zip.strict").normal(size=3)], wrt=(0, 2),
               policy=policy)


def test_zip_strict_still_raises_on_unequal_lengths():
    from transform import grad
    with pytest.raises(ValueError):
        grad(zip_strict)(0.3, XS, np.ones(2))
