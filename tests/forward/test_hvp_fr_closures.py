"""`self.inner(h)` where `inner` is the object's own attribute holding a callable (an
object with __call__, a plain function), reached from a method, a closure a method
returns, a lambda or a bound method kept as a value (red2's residual_scalar,
method_returns_closure, nested_object_wrt, ...). Reverse mode's run-time dispatch took
`inner` for a method of the class and refused ("the method Res.inner() has no Python
source and no derivative rule"): grad, and so hvp forward over reverse when the code
ran, where route "auto" cannot fall back. grad against central differences of the
function; H v against central differences of grad and against route
reverse_over_forward, each argument in turn."""
from dataclasses import dataclass

import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad, numerical_jvp
from tests.gradcheck import rng
from transform import grad, hvp

W0 = np.array([[0.3, -0.2, 0.4], [0.5, 0.1, -0.3], [0.2, 0.6, 0.1]])


def _soft(v):
    return v / (1.0 + v * v)


class Layer:
    def __init__(self, W):
        self.W = W

    def __call__(self, h):
        return np.tanh(self.W @ h)


class Res:
    def __init__(self, inner):
        self.inner = inner

    def __call__(self, h):
        return h + self.inner(h)


class Head:
    def __init__(self, layer, act):
        self.layer, self.act = layer, act

    def scorer(self, w):
        def score(h):
            return np.dot(w, self.act(self.layer(h)))
        return score


@dataclass
class DLayer:
    W: np.ndarray

    def __call__(self, h):
        return np.sin(self.W @ h)


@dataclass
class DRes:
    inner: DLayer
    gain: float

    def __call__(self, h):
        return h + self.gain * self.inner(h)


def residual(x):
    return np.sum(Res(Res(Layer(W0)))(x) ** 2)


def closure_of_method(x):
    return Head(Layer(W0), _soft).scorer(x)(x * 0.5)


def object_built_inside(W, x):
    block = DRes(DLayer(W), 0.7)
    g = lambda v: block(v)
    return np.sum(g(g(x)) ** 2)


def bound_call_value(W, x):
    step = DRes(DLayer(W), 0.7).__call__
    return np.sum(step(step(x)) ** 3)


CASES = [(residual, [(3,)]), (closure_of_method, [(3,)]),
         (object_built_inside, [(3, 3), (3,)]), (bound_call_value, [(3, 3), (3,)])]


@pytest.mark.parametrize("fn, shapes", CASES, ids=[f.__name__ for f, _ in CASES])
def test_against_differences_and_the_other_route(fn, shapes):
    r = rng("hvp fr closures", fn.__name__)
    args = tuple(0.5 * r.normal(size=s) for s in shapes)
    for k in range(len(args)):
        assert_close(grad(fn, k)(*args), numerical_grad(fn, args, k), rtol=1e-5, atol=1e-7)
        v = r.normal(size=shapes[k])
        got = hvp(fn, args, (v,), wrt=k, route="forward_over_reverse")
        assert_close(got, numerical_jvp(grad(fn, k), args, k, v), rtol=1e-5, atol=1e-6)
        want = hvp(fn, args, (v,), wrt=k, route="reverse_over_forward")
        assert_close(got, want, rtol=1e-9, atol=1e-12)


def nested_object(block, x):
    return np.sum(block(block(x)) ** 2)


def test_object_argument_differentiated():
    """The object itself the argument: its H v is a DRes like it (its W's, its gain's)."""
    r = rng("hvp fr closures", "object")
    block, x = DRes(DLayer(0.5 * r.normal(size=(2, 2))), 0.7), r.normal(size=2)
    v = DRes(DLayer(r.normal(size=(2, 2))), 0.3)
    got = hvp(nested_object, (block, x), (v,), wrt=0, route="forward_over_reverse")
    want = hvp(nested_object, (block, x), (v,), wrt=0, route="reverse_over_forward")
    assert isinstance(got, DRes) and isinstance(got.inner, DLayer)
    assert_close(got.inner.W, want.inner.W, rtol=1e-9, atol=1e-12)
    assert_close(got.gain, want.gain, rtol=1e-9, atol=1e-12)
    eps = 1e-5                          # central differences of grad along v, by hand
    def moved(s):
        return DRes(DLayer(block.inner.W + s * v.inner.W), block.gain + s * v.gain)
    plus, minus = (grad(nested_object, 0)(moved(s), x) for s in (eps, -eps))
    assert_close(got.inner.W, (plus.inner.W - minus.inner.W) / (2 * eps), rtol=1e-5,
                 atol=1e-6)
    assert_close(got.gain, (plus.gain - minus.gain) / (2 * eps), rtol=1e-5, atol=1e-6)
