"""Session 38, item 7: functools.cached_property in forward mode. Read on an object built
inside the function it gave a silently wrong tangent (the tangent object's own attribute:
the getter run on the tangents); on a dataclass argument a TypeError. Now the getter's
tangent, as for @property, against central differences (tests/fd.py)."""
import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad, numerical_jvp
from tests.noticed38 import programs as P
from tests.red2.check import fd_hessian
from transform import TransformError, grad, hvp, jvp

W = np.array([0.3, -0.5, 0.9])
X = np.array([1.0, 2.0, 0.5])
V = np.array([0.8, -0.3, 0.6])


def test_built_inside_jvp_grad_hvp():
    f = P.cached_built_inside
    assert_close(jvp(f, (W, X), (V,), wrt=0)[1], numerical_jvp(f, [W, X], 0, V))
    assert_close(grad(f)(W, X), numerical_grad(f, (W, X), 0))
    assert_close(hvp(f, (W, X), (V,), route="reverse_over_forward"),
                 fd_hessian(f, (W, X), 0) @ V, rtol=1e-4, atol=1e-5)


def test_built_inside_forward_over_reverse_refused():
    with pytest.raises(TransformError, match="computed attribute .norm"):
        hvp(P.cached_built_inside, (W, X), (V,), route="forward_over_reverse")


def test_dataclass_argument_jvp():
    f, v = P.cached_record_argument, P.CachedRecord(V)
    _, got = jvp(f, (P.CachedRecord(W), X), (v,), wrt=0)
    want = numerical_grad(lambda w: f(P.CachedRecord(w), X), (W,), 0) @ V
    assert_close(got, want)
