"""Session 39, item 2: a functools.cached_property already cached on a dataclass argument
(its value in the instance's __dict__) was refused by jvp as "no field"; its tangent is
the getter's, as when it is not cached, after checking the cached value is the getter's
value now (a value set by hand, or stale, is refused, as reverse mode does)."""
import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad
from tests.noticed39 import programs as P
from tests.red2.check import fd_hessian
from transform import grad, hvp, jvp

W = np.array([0.3, -0.5, 0.9])
X = np.array([1.0, 2.0, 0.5])
V = np.array([0.8, -0.3, 0.6])
f = P.cached_record_argument


def _cached(w):
    m = P.CachedRecord(w)
    assert m.norm > 0 and "norm" in vars(m)
    return m


def _fd(w):
    return numerical_grad(lambda w: f(P.CachedRecord(w), X), (w,), 0)


def test_cached_argument_jvp_and_grad():
    t = _cached(V)                       # a tangent with its own cache: not read
    value, got = jvp(f, (_cached(W), X), (t,), wrt=0)
    assert_close(value, f(P.CachedRecord(W), X))
    assert_close(got, _fd(W) @ V)
    assert_close(grad(f)(_cached(W), X).w, _fd(W))


def test_cached_argument_hvp():
    want = fd_hessian(lambda w: f(P.CachedRecord(w), X), (W,), 0) @ V
    got = hvp(f, (_cached(W), X), (P.CachedRecord(V),), route="reverse_over_forward")
    assert_close(got.w, want, rtol=1e-4, atol=1e-5)


def test_stale_cached_value_refused():
    m = _cached(W)
    m.w = 2.0 * W                        # the cache no longer the getter's value
    with pytest.raises(TypeError, match="cached value is not what its getter gives"):
        jvp(f, (m, X), (P.CachedRecord(V),), wrt=0)
