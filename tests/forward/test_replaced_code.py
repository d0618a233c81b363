"""A derivative of grad(f) is rebuilt when f's rule is: jacfwd(grad(f)) and grad(grad(f))
kept the tangent (or unit) function they first made, so after `f.__code__ = ...` or a
global helper rebound they gave the old function's derivatives (session 40)."""
import numpy as np

from tests.fd import assert_close, numerical_grad, numerical_jvp
from transform import grad, jacfwd

X = np.array([0.3, 0.7])


def _cubes(x):
    return np.sum(x ** 3)


def _sines(x):
    return np.sum(np.sin(x) * x)


def _rows(g, x):
    return np.array([numerical_jvp(g, (x,), 0, e) for e in np.eye(len(x))]).T


def test_jacfwd_of_grad_sees_replaced_code():
    def f(x):
        return np.sum(np.sin(x) * x)
    g = grad(f)
    assert_close(jacfwd(g)(X), _rows(g, X))
    f.__code__ = _cubes.__code__
    assert_close(jacfwd(g)(X), _rows(g, X))
    assert_close(jacfwd(g)(X), _rows(grad(_cubes), X))


helper = _sines


def through_helper(x):
    return helper(x) * 2.0


def test_jacfwd_of_grad_sees_a_rebound_global():
    global helper
    g = grad(through_helper)
    try:
        assert_close(jacfwd(g)(X), _rows(g, X))
        helper = _cubes
        assert_close(jacfwd(g)(X), _rows(g, X))
        assert_close(jacfwd(g)(X), np.diag(12.0 * X))
    finally:
        helper = _sines


def test_grad_of_grad_sees_replaced_code():
    def f(t):
        return np.sin(t) * t
    gg = grad(grad(f))
    assert_close(gg(0.4), numerical_grad(grad(f), [0.4], 0))
    f.__code__ = (lambda t: t ** 3).__code__
    assert_close(gg(0.4), numerical_grad(grad(f), [0.4], 0))
    assert_close(gg(0.4), 6 * 0.4)


def _with_cell():
    helper = _sines

    def f(x):
        return helper(x) * 2.0

    def rebind(new):
        nonlocal helper
        helper = new
    return f, rebind


def test_jacfwd_and_grad_of_grad_see_a_rebound_cell():
    f, rebind = _with_cell()
    g = grad(f)
    assert_close(jacfwd(g)(X), _rows(g, X))
    gg = grad(lambda t: g(np.array([t, 0.5]))[0])
    rebind(_cubes)
    assert_close(jacfwd(g)(X), np.diag(12.0 * X))
    assert_close(gg(0.3), 12.0 * 0.3)


def test_grad_with_a_memory_limit_sees_replaced_code():
    """grad(f, memory_limit=...) compiles a copy of f carrying the limit: the copy kept
    f's old code, so after `f.__code__ = ...` a new grad(f, memory_limit=...) and the one
    made before gave the old function's gradient (session 40)."""
    def f(x):
        return np.sum(np.sin(x) * x)
    before = grad(f, memory_limit="1GB")
    assert_close(before(X), numerical_grad(f, [X], 0))
    f.__code__ = _cubes.__code__
    want = numerical_grad(f, [X], 0)
    assert_close(grad(f, memory_limit="1GB")(X), want)
    assert_close(before(X), want)
