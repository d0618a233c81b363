"""Unpacking a different number of values than targets raises Python's ValueError in
compiled code too (repro/unpack_too_many_values.py, session 32): the targets used to be
bound to value[0], value[1], ... and the rest ignored (or an IndexError for too few).
A length the compiler cannot see is checked when the code runs (runtime.unpacked_count);
unpacking the right number of values keeps its gradient."""
import numpy as np
import pytest

from runtime.containers import unpacked_count
from transform import grad

from .check import check_grad, policies

A = np.array([0.3, -0.8, 1.1])
M = np.array([[1.2, 0.3, -0.4], [0.2, 0.9, 0.5], [-0.3, 0.4, 1.5]])


def h3(p, q):
    return p * q, q, p


def display_too_many(x):
    a, b = x, x * 2.0, x
    return np.sum(a * b)


def helper_too_many(x):
    a, b = x, x
    for _ in range(2):
        a, b = h3(a, b)
    return np.sum(a * b)


def rule_too_many(x):
    u, s = np.linalg.svd(np.outer(x, x) + np.eye(3))
    return np.sum(s)


def array_too_many(x):
    a, b = x
    return a * b


def array_too_few(x):
    a, b, c, d = x
    return a * b


def slice_too_few(x):
    a, b, c = x[:2]
    return a * b


def nested_too_many(x):
    a, (b, c) = x[0], (x[1], x[2], x[0])
    return a * b


def loop_target_too_many(x):
    s = 0.0
    for a, b in zip(x, x, x):
        s = s + a * b
    return s


def comprehension_too_many(x):
    return sum(a * b for a, b in [(x[0], x[1], x[2])])


WRONG = [display_too_many, helper_too_many, rule_too_many, array_too_many, array_too_few,
         slice_too_few, nested_too_many, loop_target_too_many, comprehension_too_many]


def python_error(fn, arg):
    with pytest.raises(ValueError) as caught:
        fn(arg)
    return str(caught.value)


@pytest.mark.parametrize("policy", policies())
@pytest.mark.parametrize("fn", WRONG, ids=lambda fn: fn.__name__)
def test_compiled_code_raises_pythons_value_error(fn, policy):
    expected = python_error(fn, A)
    with pytest.raises(ValueError) as caught:
        grad(fn, policy=policy)(A)
    assert str(caught.value) == expected


def rule_three(x):
    u, s, vt = np.linalg.svd(np.outer(x, x) + np.eye(3))
    return np.sum(s * s) + np.sum(u[:, 0] * vt[0])


def array_rows(m):
    a, b, c = m
    return np.sum(a * b) + np.sum(np.tanh(c))


def pair_of_param(x):
    p = (x, np.sin(x))
    q = p if x[0] > 0 else (np.cos(x), x)
    a, b = q
    return np.sum(a * b)


@pytest.mark.parametrize("policy", policies())
@pytest.mark.parametrize("fn, arg", [(rule_three, A), (array_rows, M), (pair_of_param, A)],
                         ids=["rule_three", "array_rows", "pair_of_param"])
def test_right_count_keeps_its_gradient(fn, arg, policy):
    check_grad(fn, (arg,), policy=policy)


def test_unpacked_count_messages_are_pythons():
    unpacked_count((1, 2), 2)
    unpacked_count(np.ones(3), 3)
    for value, count in (((1, 2, 3), 2), ([1], 2), (np.ones(2), 3), ((), 1)):
        with pytest.raises(ValueError) as ours:
            unpacked_count(value, count)
        with pytest.raises(ValueError) as theirs:
            exec(f"{', '.join('v' * count)}, = value", {"value": value})   # noqa: S102
        assert str(ours.value) == str(theirs.value)


class _Indexable:
    """Items by position and no length: Python unpacks it by indexing until IndexError."""

    def __getitem__(self, k):
        if k < 2:
            return float(k)
        raise IndexError(k)


def test_a_value_without_a_length_is_left_to_its_indexing():
    assert unpacked_count(_Indexable(), 2) is None
    assert unpacked_count(_Indexable(), 5) is None      # no len(): not checked here
