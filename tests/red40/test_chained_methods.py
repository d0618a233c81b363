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


def test_method_returning_self_against_differences():
    want = numerical_grad(mean_of_bumps, [X], 0)
    assert_close(grad(mean_of_bumps)(X), want, 1e-6, 1e-8)
    rows = np.array([numerical_grad(lambda x: grad(mean_of_bumps)(x)[k], [X], 0)
                     for k in range(len(X))])
    assert_close(hessian(mean_of_bumps)(X), rows, 1e-5, 1e-7, "hessian")


def test_a_kept_result_is_still_refused():
    with pytest.raises(TransformError, match="result is not used"):
        grad(second_name)(X)
