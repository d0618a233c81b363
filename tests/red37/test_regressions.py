"""What red37 found, reduced, against central differences (tests/fd.py).

1. An array method given a positional axis (`m.sum(0)`, `m.max(1)`) on a receiver the
   source does not show to be an array (an object's attribute, a list's item, or a
   flat gradient's temporary in hvp forward over reverse) is dispatched when the code
   runs; forward mode's tangent of the array branch's copied call dropped the axis
   (`np.sum(m_dot)`): jvp a scalar where the value is a vector, both hvp routes wrong
   (an EM loop's Q function; the axis went unseen as the call's receiver was a copy).
2. hvp forward over reverse: a user function called with an integer keyword
   (`logsumexp(lp, axis=1)`) got the integer's zero tangent as a derivative, and
   refused `axis` as "being differentiated" when the code ran (route "auto" could not
   fall back then).
3. hvp's default route refused reverse mode over forward mode's loop header
   `for ((u, k), c), c_dot in zip(zip(seq1, seq2), seq2_dot)` at that line of the
   generated code (the header had no user's line recorded): now at the user's `for`
   (the nearest earlier generated line that has one).
4. hvp forward over reverse (and auto) at an int primal, `hvp(g, (2,), (1.0,))`,
   returned 0.0 (the default route's TypeError: it is int, not a float).
"""
import inspect

import numpy as np
import pytest

from tests.fd import assert_close, numerical_jvp
from transform import TransformError, grad, hvp, jvp

ROUTES = ("reverse_over_forward", "forward_over_reverse", "auto")


class Holder:
    def __init__(self, m):
        self.m = m

    def columns(self):
        return self.m.sum(0)


def attribute_sum(w):
    return Holder(w.reshape(3, 2)).columns()


def list_item_sums(w):
    blocks = [np.sin(w).reshape(3, 2), w.reshape(2, 3)]
    return blocks[0].sum(0) * blocks[1].sum(1)


def em_q(means, x):
    for _ in range(2):
        lp = (x[:, None] - means) ** 2
        q = np.sum(lp * lp)
        means = lp.sum(0) * 0.1
    return q


def logsumexp(a, axis=None):
    m = np.max(a, axis=axis, keepdims=True)
    return np.squeeze(m + np.log(np.sum(np.exp(a - m), axis=axis, keepdims=True)), axis)


def mixture(means, x):
    return np.sum(logsumexp(-0.5 * (x[:, None] - means) ** 2, axis=1))


W = np.linspace(-1.0, 1.0, 6) + 0.2
V = np.linspace(0.3, 1.1, 6)


@pytest.mark.parametrize("fn", [attribute_sum, list_item_sums])
def test_dispatched_method_axis_jvp(fn):
    value, tangent = jvp(fn, (W,), (V,))
    assert np.shape(tangent) == np.shape(value)
    assert_close(tangent, numerical_jvp(fn, [W], 0, V), 1e-6, 1e-8, "jvp")


@pytest.mark.parametrize("fn", [em_q, mixture])
@pytest.mark.parametrize("route", ROUTES)
def test_hvp_routes(fn, route):
    m, x, v = np.array([-0.5, 0.8]), np.linspace(-1.0, 1.2, 5), np.array([1.0, 0.3])
    want = numerical_jvp(grad(fn), [m, x], 0, v)
    assert_close(hvp(fn, (m, x), (v,), route=route), want, 1e-5, 1e-6, route)


def zip_of_zip(s, w):
    pairs = zip(np.linspace(0.5, 1.5, 2), range(2))
    for (u, k), c in zip(pairs, [s, s * s]):
        s = s + c * u * (k + 1)
    return s + np.sum(w * w)


def test_reverse_over_forward_refusal_at_the_users_line():
    with pytest.raises(TransformError) as info:
        hvp(zip_of_zip, (0.3, np.ones(2)), (1.0,), route="reverse_over_forward")
    line = inspect.getsourcelines(zip_of_zip)[1] + 2
    assert (info.value.filename, info.value.line) == (__file__, line)
    for route in ROUTES[1:] + (None,):   # forward over reverse takes it, so auto (default)
        want = numerical_jvp(grad(zip_of_zip), [0.3, np.ones(2)], 0, 1.0)
        assert_close(hvp(zip_of_zip, (0.3, np.ones(2)), (1.0,), route=route), want,
                     1e-5, 1e-6, route)


def cubic(x, k=2):
    return x ** 3 * k + np.exp(x)


@pytest.mark.parametrize("route", ROUTES)
def test_int_primal_refused_by_every_route(route):
    with pytest.raises(TypeError, match="it is int"):
        hvp(cubic, (2,), (1.0,), route=route)
    with pytest.raises(TypeError, match="it is int"):
        hvp(cubic, (2.0, 3), (1.0, 1.0), wrt=(0, 1), route=route)
    want = numerical_jvp(grad(cubic), [2.0], 0, 1.0)
    assert_close(hvp(cubic, (2.0,), (1.0,), route=route), want, 1e-6, 1e-8, route)
