"""A mutant of runtime/containers.py (session 29, mutG): record_field's refusal of an
object whose cotangent is an array, dropped, let the field's gradient be silently zero.
An object of a user class wrapped by a NumPy function (np.asarray: a 0-d object array)
and read back gets an array as its cotangent; the backward sweep refuses it rather
than give the field no gradient."""
import numpy as np
import pytest

from tests.gradcheck import POLICIES
from transform import grad


class Product:
    def __init__(self, v):
        self.v = v

    def __add__(self, other):
        return Product(self.v * other.v)


def _through_an_object_array(x):
    p = np.asarray(Product(np.sin(x)))
    return np.sum(p.item().v)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("shape", [(), (2,)])
def test_object_wrapped_by_numpy_is_refused_not_zero(shape, policy):
    x = np.full(shape, 0.5)
    assert _through_an_object_array(x) == pytest.approx(np.sum(np.sin(x)))
    with pytest.raises(TypeError, match="cotangent is a number or an array"):
        grad(_through_an_object_array, policy=policy)(x)
