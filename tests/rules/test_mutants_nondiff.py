"""Behaviour the mutation run (tools/mutate.py) found unpinned in runtime/rules/nondiff.py:
arrays built from shapes are new (fresh=True), so copying a value into one and then
writing into the value is differentiated, not refused as shared memory; clocks may be
read in a differentiated function."""
import time

import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad
from tests.gradcheck import POLICIES
from transform import grad

X = np.array([0.3, -1.2, 0.7])


def into_zeros_like(x):
    a = np.sin(x)
    y = np.zeros_like(x)
    y[:] = a
    a[0] = 5.0
    return np.sum(y * y) + np.sum(a * x)


def into_ones_like(x):
    a = np.sin(x)
    y = np.ones_like(x)
    y[:] = a
    a[0] = 5.0
    return np.sum(y * y) + np.sum(a * x)


def into_empty_like(x):
    a = np.sin(x)
    y = np.empty_like(x)
    y[:] = a
    a[0] = 5.0
    return np.sum(y * y) + np.sum(a * x)


def into_zeros(x):
    a = np.sin(x)
    y = np.zeros(3)
    y[:] = a
    a[0] = 5.0
    return np.sum(y * y) + np.sum(a * x)


def into_ones(x):
    a = np.sin(x)
    y = np.ones(3)
    y[:] = a
    a[0] = 5.0
    return np.sum(y * y) + np.sum(a * x)


def into_empty(x):
    a = np.sin(x)
    y = np.empty(3)
    y[:] = a
    a[0] = 5.0
    return np.sum(y * y) + np.sum(a * x)


def into_eye(x):
    a = np.sin(x)
    y = np.eye(3)
    y[0] = a
    a[0] = 5.0
    return np.sum(y * y) + np.sum(a * x)


def into_identity(x):
    a = np.sin(x)
    y = np.identity(3)
    y[0] = a
    a[0] = 5.0
    return np.sum(y * y) + np.sum(a * x)


def into_arange(x):
    a = np.sin(x)
    y = np.arange(3.0)
    y[:] = a
    a[0] = 5.0
    return np.sum(y * y) + np.sum(a * x)


MAKERS = [into_zeros_like, into_ones_like, into_empty_like, into_zeros, into_ones,
          into_empty, into_eye, into_identity, into_arange]


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn", MAKERS, ids=lambda f: f.__name__)
def test_an_array_built_from_a_shape_shares_nothing(fn, policy):
    """`y[:] = a` copies a into the new array y, so a later write into a does not change
    y: the alias check lets it through (an array that may share memory would be
    refused) and the gradient matches finite differences."""
    got = grad(fn, policy=policy)(X.copy())
    assert_close(got, numerical_grad(fn, (X.copy(),), 0), rtol=1e-6)


def timed(x):
    t0 = time.perf_counter()
    n0 = time.perf_counter_ns()
    w0, m0 = time.time(), time.monotonic()
    p0, c0 = time.process_time(), time.time_ns() + time.monotonic_ns()
    c1 = time.process_time_ns()
    y = np.sum(np.sin(x))
    spent = (time.perf_counter() - t0) + (w0 + m0 + p0 + c0 + c1 + n0) * 0.0
    return y + 0.0 * spent


@pytest.mark.parametrize("policy", POLICIES)
def test_clocks_may_be_read_in_a_differentiated_function(policy):
    """The clocks carry no derivative (declared nondiff): reading them is allowed and
    changes nothing."""
    got = grad(timed, policy=policy)(X.copy())
    assert_close(got, np.cos(X), rtol=1e-12)
