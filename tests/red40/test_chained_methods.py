"""`acc.add(v)` on an object the function made, where `add` sets attributes of `self`
(`self.calls += 1` too) and returns `self` (chaining style): its result discarded, no
second name sees the object, so it is followed like a method returning None
(frontend/attribute_writes.py); a kept result (a second name) is still refused."""
import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad
from transform import TransformError, grad, hessian

X = np.array([0.3, -0.5, 1.2])


class _Counter:
    def __init__(self):
        self.total = 0.0
        self.calls = 0

    def add(self, v):
        self.total = self.total + v
        self.calls += 1
        return self


def mean_of_bumps(x):
    acc = _Counter()
    for xi in x:
        acc.add(np.exp(-xi ** 2))
    return acc.total / acc.calls


def second_name(x):
    acc = _Counter()
    kept = acc.add(x[0])
    acc.add(x[1])
    return kept.total * x[2]


class _Squares:
    def __init__(self, n):
        self.total = 0.0
        self.buf = np.zeros(n)

    def add(self, v):
        self.total += np.sum(v ** 2)      # only `+=`: a float attribute, rebound
        return self

    def push(self, v):
        self.buf += v                     # an array: would change in place


def sum_of_squares(x):
    acc = _Squares(3)
    acc.add(x)
    acc.add(np.sin(x))
    return acc.total * x[0]


def pushed(x):
    acc = _Squares(3)
    acc.push(x)
    return np.sum(acc.buf ** 2)


@pytest.mark.parametrize("f", [mean_of_bumps, sum_of_squares])
def test_method_returning_self_against_differences(f):
    want = numerical_grad(f, [X], 0)
    assert_close(grad(f)(X), want, 1e-6, 1e-8, f.__name__)
    rows = np.array([numerical_grad(lambda x: grad(f)(x)[k], [X], 0) for k in range(len(X))])
    assert_close(hessian(f)(X), rows, 1e-5, 1e-7, f.__name__ + " hessian")


def test_an_array_attribute_updated_in_place_is_refused_when_it_runs():
    with pytest.raises(TypeError, match="updated in place"):
        grad(pushed)(X)


def test_a_kept_result_is_still_refused():
    with pytest.raises(TransformError, match="result is not used"):
        grad(second_name)(X)


class _Doubling:
    """`+=` defined apart from `+` (`__iadd__` adds twice): Python runs __iadd__."""

    def __init__(self, v):
        self.v = v

    def __iadd__(self, other):
        self.v = self.v + 2.0 * other
        return self

    def __add__(self, other):
        return _Doubling(self.v + other)


class _Holder:
    def __init__(self, n):
        self.n = n


def _iadd_of_a_user_object(x):
    acc = _Holder(_Doubling(x[0] * 1.0))
    acc.n += x[1]
    return acc.n.v * x[2]


def test_an_attributes_own_iadd_is_not_replaced_by_add():
    """`acc.n += v` was rewritten to `acc.n + v`, skipping a user `__iadd__` (grad
    [1.1, 1.1, -0.4] against differences [1.1, 2.2, -1.1], session 39's review): the
    rewrite keeps `+=`'s meaning, so the object's own __iadd__ is followed (refused
    here: it writes an attribute of the object it changes)."""
    x = np.array([0.3, -0.7, 1.1])
    try:
        got = grad(_iadd_of_a_user_object)(x)
    except TransformError:
        return
    assert_close(got, numerical_grad(_iadd_of_a_user_object, [x], 0))
