"""Arguments that are objects of a class with __slots__ (no __dict__): the gradient is a
dict by attribute, as for a plain object; a dataclass(slots=True) gets a dataclass.
Against finite differences under every policy (the harness reads slots: tests/trees.py)."""
import dataclasses

import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_grad, rng
from transform import grad

policies = pytest.mark.parametrize("policy", POLICIES)


class Slotted:
    __slots__ = ("w", "b")

    def __init__(self, w, b):
        self.w = w
        self.b = b


class SlottedChild(Slotted):
    __slots__ = ("scale",)

    def __init__(self, w, b, scale):
        super().__init__(w, b)
        self.scale = scale


@dataclasses.dataclass(slots=True)
class SlottedData:
    w: np.ndarray
    b: float


def linear_loss(p, x):
    return np.sum(np.tanh(p.w * x) ** 2) + p.b * np.sum(x)


def scaled_loss(p, x):
    return np.sum(np.sin(p.w * x)) * p.scale + p.b ** 2


def loop_loss(p, xs):
    s = 0.0
    for x in xs:
        s = s + np.sum((p.w * x + p.b) ** 2)
    return s


@policies
def test_slotted_object(policy):
    check_grad(linear_loss, [Slotted(rng("slot.w").normal(size=3), 0.4),
                             rng("slot.x").normal(size=3)], wrt=(0, 1), policy=policy)


@policies
def test_slotted_subclass(policy):
    check_grad(scaled_loss, [SlottedChild(rng("slot.cw").normal(size=3), -0.3, 1.7),
                             rng("slot.cx").normal(size=3)], wrt=(0,), policy=policy)


@policies
def test_slotted_dataclass(policy):
    check_grad(linear_loss, [SlottedData(rng("slot.dw").normal(size=3), 0.4),
                             rng("slot.dx").normal(size=3)], wrt=(0, 1), policy=policy)


@policies
def test_slotted_object_read_in_a_loop(policy):
    check_grad(loop_loss, [Slotted(rng("slot.lw").normal(size=2), 0.2),
                           rng("slot.lx").normal(size=(4, 2))], wrt=(0,), policy=policy)


def test_gradient_structure():
    g = grad(linear_loss)(Slotted(np.array([1.0, 2.0]), 0.5), np.array([0.3, -0.1]))
    assert isinstance(g, dict) and set(g) == {"w", "b"}
    assert g["w"].shape == (2,) and type(g["b"]) is float
    d = grad(linear_loss)(SlottedData(np.array([1.0, 2.0]), 0.5), np.array([0.3, -0.1]))
    assert type(d) is SlottedData and type(d.b) is float
