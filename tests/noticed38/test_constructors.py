"""Session 38, item 4: `super(C, self).__init__(...)` as a constructor's first statement
is built like `super().__init__(...)` (it was refused), starting after C in the object's
class's MRO as Python does; against central differences (tests/fd.py)."""
import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad, numerical_jvp
from tests.noticed38 import programs as P
from transform import grad, jvp

W = np.array([0.3, -0.7, 1.1])
V = np.array([0.8, -0.3, 0.6])


@pytest.mark.parametrize("name", ["super_named_class", "super_skipping_a_class"])
def test_super_with_class_and_self(name):
    f = getattr(P, name)
    assert_close(grad(f)(W), numerical_grad(f, (W,), 0))
    out, tangent = jvp(f, (W,), (V,))
    assert_close(out, f(W))
    assert_close(tangent, numerical_jvp(f, [W], 0, V))
