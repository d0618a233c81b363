"""User recursion as deep as the primal allows (issue 16): a recursive function's
gradient at ~400 and ~900 levels under the default recursion limit, against finite
differences; too deep (or off the main thread, where the limit is not raised) is a
RecursionError naming the depth, and the limit is restored afterwards."""
import sys
import threading

import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad
from tests.gradcheck import POLICIES, check_grad
from transform import grad, value_and_grad


def rec(x, n):
    return x if n == 0 else np.sin(rec(x, n - 1)) * 0.5 + x


def rec_vector(w, n):
    return w if n == 0 else np.tanh(rec_vector(w, n - 1)) * 0.9 + 0.1 * w


def rec_array(w, n):
    return np.sum(rec_vector(w, n) ** 2)


@pytest.fixture(autouse=True)
def default_limit():
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(1000)
    yield
    sys.setrecursionlimit(old)


@pytest.mark.parametrize("policy", POLICIES)
def test_depth_400_every_policy(policy):
    check_grad(rec, [0.3, 400], wrt=(0,), policy=policy)


def test_depth_900_as_deep_as_the_primal():
    rec(0.3, 900)                                   # the primal fits
    g = grad(rec)(0.3, 900)
    assert_close(g, numerical_grad(rec, [0.3, 900], 0), rtol=1e-5, atol=1e-7)
    assert sys.getrecursionlimit() == 1000


def test_value_and_grad_of_an_array_recursion():
    w = np.array([0.3, -0.2, 0.7])
    value, g = value_and_grad(rec_array)(w, 700)
    assert_close(value, rec_array(w, 700), rtol=1e-12, atol=0)
    assert_close(g, numerical_grad(rec_array, [w, 700], 0), rtol=1e-5, atol=1e-7)


def test_too_deep_names_the_depth():
    with pytest.raises(RecursionError, match=r"rec was \d+ calls deep") as info:
        grad(rec)(0.3, 50_000)
    assert "more than 8000 Python frames" in str(info.value)
    assert sys.getrecursionlimit() == 1000


def test_off_the_main_thread_the_limit_is_not_raised():
    caught = []

    def run():
        try:
            grad(rec)(0.3, 600)
        except RecursionError as exc:
            caught.append(str(exc))
    t = threading.Thread(target=run)
    t.start()
    t.join()
    assert caught and "main thread only" in caught[0] and "calls deep" in caught[0]


def test_vjp_at_depth_900():
    from transform import vjp
    out, pullback = vjp(rec, 0.3, 900, wrt=(0,))
    assert_close(out, rec(0.3, 900), rtol=1e-12, atol=0)
    (g,) = pullback(1.0)
    assert_close(g, numerical_grad(rec, [0.3, 900], 0), rtol=1e-5, atol=1e-7)
    assert sys.getrecursionlimit() == 1000
