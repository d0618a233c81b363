"""Forward mode (jvp, hvp by both routes) through a dataclass whose __post_init__ sets
attributes from its fields (session 37): built as reverse mode builds it (the fields'
stores, then __post_init__'s code, frontend/constructors.py), its tangent an object
holding every attribute's tangent. Against central differences (tests/fd.py); a
dataclass *argument* with such an attribute is refused (its tangent would be computed
by __post_init__ from the fields' tangents), one passed undifferentiated is held fixed."""
import dataclasses

import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad, numerical_jvp
from tests.gradcheck import rng
from transform import TransformError, hvp, jvp


@dataclasses.dataclass
class Layer:
    w: np.ndarray
    b: float

    def __post_init__(self):
        self.scale = np.sum(self.w ** 2) + self.b
        self.name = "layer"


def built_inside(x, b):
    layer = Layer(np.sin(x), b)
    return np.sum(layer.w * layer.scale) + layer.b * layer.scale


def held_fixed(layer, y):
    return np.sum(layer.w * layer.scale * np.cos(y))


R = rng("post_init")
X, B, Y = R.normal(size=3), 0.7, R.normal(size=3)


@pytest.mark.parametrize("wrt", [0, 1])
def test_jvp_through_post_init(wrt):
    v = R.normal(size=3) if wrt == 0 else 0.4
    _, got = jvp(built_inside, (X, B), (v,), wrt=wrt)
    assert_close(got, numerical_jvp(built_inside, [X, B], wrt, v), rtol=1e-6, atol=1e-9)


@pytest.mark.parametrize("route", ["reverse_over_forward", "forward_over_reverse"])
def test_hvp_through_post_init(route):
    v = R.normal(size=3)
    got = hvp(built_inside, (X, B), (v,), wrt=0, route=route)
    want = numerical_jvp(lambda x: numerical_grad(built_inside, (x, B), 0), [X], 0, v,
                         eps=1e-4)
    assert_close(got, want, rtol=1e-5, atol=1e-6)


def test_an_undifferentiated_argument_is_held_fixed():
    layer, v = Layer(X, B), R.normal(size=3)
    _, got = jvp(held_fixed, (layer, Y), (v,), wrt=1)
    assert_close(got, numerical_jvp(held_fixed, [layer, Y], 1, v), rtol=1e-6, atol=1e-9)


def test_a_differentiated_argument_with_a_computed_attribute_is_refused():
    with pytest.raises(TransformError, match="`layer.scale` is no field") as info:
        jvp(held_fixed, (Layer(X, B), Y), (Layer(np.ones(3), 0.0), np.ones(3)))
    assert info.value.filename == __file__ and "layer.scale" in info.value.source_line
