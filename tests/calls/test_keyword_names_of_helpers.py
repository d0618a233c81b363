"""A user's keyword argument may have the name of a parameter of the runtime function
generated code routes the call through (`call_jvp(fn, tangents, ...)`, a method rule's
`obj`, `spread_call(fn, args, ...)`): those parameters are positional-only, so the
user's keyword reaches the user's function. Before, jvp and hvp raised "got multiple
values for argument 'fn'" and grad "... for argument 'obj'"."""
import numpy as np
import pytest

from tests.fd import assert_close, directional, numerical_grad
from transform import grad, hvp, jvp

KW = dict(fn=1.1, tangents=1.2, wrt=1.3, method=1.4, obj=1.5, args=1.6, given=1.7)


def helper(x, *, fn=2.0, tangents=1.0, wrt=1.0, method=1.0, obj=1.0, args=1.0, given=1.0):
    return np.sin(x) * fn * tangents * wrt * method * obj * args * given


def by_keywords(x):
    return np.sum(helper(x, fn=1.1, tangents=1.2, wrt=1.3, method=1.4, obj=1.5, args=1.6,
                         given=1.7) ** 2)


def by_a_dict(x):
    return np.sum(helper(x, **KW) ** 2)


def by_a_spread(x):
    xs = [x]
    return np.sum(helper(*xs, fn=2.0, wrt=3.0, args=0.5) ** 2)


X, T = np.array([0.3, 0.7]), np.array([1.0, -0.5])


@pytest.mark.parametrize("f", [by_keywords, by_a_dict, by_a_spread])
def test_grad(f):
    assert_close(grad(f)(X), numerical_grad(f, [X], 0), 1e-6, 1e-8)


@pytest.mark.parametrize("f", [by_keywords, by_a_dict, by_a_spread])
def test_jvp(f):
    assert_close(jvp(f, (X,), (T,))[1], directional(f, [X], 0, T), 1e-6, 1e-8)


@pytest.mark.parametrize("f", [by_keywords, by_a_spread])
def test_hvp(f):
    h = 1e-4                                    # differences of differences, no grad
    want = (numerical_grad(f, [X + h * T], 0) - numerical_grad(f, [X - h * T], 0)) / (2 * h)
    assert_close(hvp(f, (X,), (T,)), want, 1e-4, 1e-5)
