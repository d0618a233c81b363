"""Objects of classes with base classes built inside the differentiated function
(tests/classes/programs.py): grad, jvp and hvp (both routes) against central differences
in float64 computed without thunkgrad (tests/fd.py, red2's second differences); the
classes whose construction the compiler cannot read stay refused with its message."""
import numpy as np
import pytest

from tests.classes import programs as P
from tests.fd import assert_close, numerical_grad
from tests.red2.check import fd_hessian, fd_jvp
from transform import TransformError, grad, hvp, jvp

W = np.array([0.3, -0.7, 1.1])
X = np.array([0.5, 0.2, -0.4])
V = np.array([0.8, -0.3, 0.6])
WORKING = ["inherited", "inherited_twice", "super_init", "super_init_on_x",
           "named_base_init", "two_super_inits", "object_init", "aliased_init", "dataclass_child",
           "dataclass_post_init"]
REFUSED = ["refused_inherits_calls", "refused_super_calls", "refused_late",
           "refused_other_super", "refused_multiple", "refused_computed_default",
           "refused_sometimes_sets", "refused_passes_self"]
FORWARD = WORKING      # dataclass_post_init in forward mode too since session 37
ROUTES = ["forward_over_reverse", "reverse_over_forward"]


@pytest.mark.parametrize("name", WORKING)
@pytest.mark.parametrize("k", [0, 1])
def test_grad(name, k):
    f = getattr(P, name)
    assert_close(grad(f, k)(W, X), numerical_grad(f, (W, X), k))


@pytest.mark.parametrize("name", FORWARD)
def test_jvp(name):
    f = getattr(P, name)
    out, tangent = jvp(f, (W, X), (V,), wrt=0)
    assert_close(out, f(W, X))
    assert_close(tangent, fd_jvp(f, (W, X), 0, V), rtol=1e-5)


@pytest.mark.parametrize("name", FORWARD)
@pytest.mark.parametrize("route", ROUTES)
def test_hvp(name, route):
    f = getattr(P, name)
    got = hvp(f, (W, X), (V,), wrt=0, route=route)
    assert_close(got, fd_hessian(f, (W, X), 0) @ V, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("name", REFUSED)
def test_refused(name):
    f = getattr(P, name)
    with pytest.raises(TransformError, match="is not a class the compiler can build"):
        grad(f)(W, X)


def test_refused_names_the_line():
    with pytest.raises(TransformError, match=r"programs\.py:\d+:\d+: .*FromCalls"):
        grad(P.refused_inherits_calls)(W, X)
