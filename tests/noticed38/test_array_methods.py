"""Session 38, item 5: array methods of a value the source does not show is an array (a
list item, a dict value, a tuple entry: `xs[0].dot(w)`, `d["a"].take(idx)`) in forward
mode, dispatched to their NumPy function when the code runs (they were refused); and
`.compress()` (no rule before, in any mode), against central differences (tests/fd.py)."""
import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad, numerical_jvp
from tests.noticed38 import programs as P
from tests.red2.check import fd_hessian
from transform import grad, hvp, jacfwd, jvp

W = np.array([0.3, -0.7, 1.1])
V = np.array([0.8, -0.3, 0.6])
SCALAR = ["list_item_take_dot", "dict_value_compress", "direct_compress"]


@pytest.mark.parametrize("name", SCALAR)
def test_jvp_and_grad(name):
    f = getattr(P, name)
    out, tangent = jvp(f, (W,), (V,))
    assert_close(out, f(W))
    assert_close(tangent, numerical_jvp(f, [W], 0, V))
    assert_close(grad(f)(W), numerical_grad(f, (W,), 0))


@pytest.mark.parametrize("name", SCALAR[:2])
@pytest.mark.parametrize("route", ["reverse_over_forward", "forward_over_reverse"])
def test_hvp(name, route):
    f = getattr(P, name)
    assert_close(hvp(f, (W,), (V,), route=route), fd_hessian(f, (W,), 0) @ V,
                 rtol=1e-4, atol=1e-5)


def test_jacfwd_of_a_vector():
    f = P.method_mix_vector
    want = np.stack([numerical_jvp(f, [W], 0, e) for e in np.eye(3)], axis=1)
    assert_close(jacfwd(f)(W), want)
