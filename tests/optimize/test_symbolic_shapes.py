"""The general rule (no argument shapes known) drops `unbroadcast` between two names
computed alike from the same parameters (`W @ x + W @ x`), and keeps it wherever the
shapes may differ: other parameters, a parameter rebound, a loop. Each case runs the
general rule itself on shapes that broadcast, against finite differences."""
import numpy as np
import pytest

import transform.api
from tests.fd import assert_close, numerical_grad
from tests.gradcheck import POLICIES
from transform import unthunk


def same_products(W, x):
    return np.sum(np.tanh(W @ x + W @ x))


def other_vectors(W, x, y):
    return np.sum(np.tanh(W @ x + W @ y))


def broadcast_sum(a, b):
    return np.sum(np.sin(a + b) * (a + b))


def rebound_parameter(W, x):
    a = W @ x
    x = x[:1]
    return np.sum(a + W[:, :1] @ x)


def rebound_between(W, x, y):
    h = x
    a = W @ h
    h = y                # h's shape differs from one definition to the next
    b = W @ h
    return np.sum(np.tanh(a + b))


def loop_carried(W, x, n):
    h = x
    for i in range(n):
        h = np.tanh(W @ h + x)
    return np.sum(h)


def general_source(fn, wrt, policy="loop"):
    return transform.api.compiled(fn, wrt, policy).source


def general_gradients(fn, wrt, args, policy):
    """The general rule's gradients (compiled without argument shapes), run directly."""
    rule = transform.api.compiled(fn, wrt, policy)
    _, pullback = rule.rrule(*args)
    return [unthunk(g) for g in pullback(1.0)]


def test_the_same_product_twice_needs_no_unbroadcast():
    assert "unbroadcast" not in general_source(same_products, ("W",))


@pytest.mark.parametrize("fn, wrt", [(other_vectors, ("W",)), (broadcast_sum, ("a", "b")),
                                     (rebound_parameter, ("W",)), (rebound_between, ("W",))])
def test_shapes_that_may_differ_keep_their_unbroadcast(fn, wrt):
    assert "unbroadcast" in general_source(fn, wrt)


RNG = np.random.default_rng(3)
CASES = [
    (same_products, ("W", "x"), (RNG.normal(size=(3, 4)), RNG.normal(size=4))),
    (other_vectors, ("W", "x", "y"), (RNG.normal(size=(3, 4)), RNG.normal(size=4),
                                      RNG.normal(size=(2, 4, 1)))),
    (broadcast_sum, ("a", "b"), (RNG.normal(size=(3, 1)), RNG.normal(size=4))),
    (broadcast_sum, ("a", "b"), (RNG.normal(size=3), RNG.normal(size=(2, 3)))),
    (rebound_parameter, ("W",), (RNG.normal(size=(3, 2)), RNG.normal(size=2))),
    (rebound_between, ("W", "x", "y"), (RNG.normal(size=(3, 4)), RNG.normal(size=4),
                                        RNG.normal(size=(2, 4, 1)))),
    (loop_carried, ("W", "x"), (RNG.normal(size=(3, 3)) * 0.5, RNG.normal(size=3), 3)),
]


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn, wrt, args", CASES, ids=lambda v: getattr(v, "__name__", ""))
def test_the_general_rule_is_right_on_broadcasting_shapes(fn, wrt, args, policy):
    got = general_gradients(fn, wrt, args, policy)
    params = list(fn.__code__.co_varnames[:fn.__code__.co_argcount])
    for name, g in zip(wrt, got):
        k = params.index(name)
        want = numerical_grad(fn, list(args), k)
        assert np.shape(g) == np.shape(args[k])
        assert_close(g, want, rtol=1e-5, atol=1e-7, what=f"d{name}")
