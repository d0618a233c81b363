"""runtime/containers.py: the cotangent of an attribute read (getattr_vjp) and of a record
field (record_field), for the kinds of receivers generated code hands them."""
import dataclasses
from typing import NamedTuple

import numpy as np
import pytest

from runtime.containers import getattr_vjp, record_field

G = np.array([1.5, -2.0])


class Pt(NamedTuple):
    x: float
    y: float

    def norm2(self):
        return self.x ** 2 + self.y ** 2


class Slotted:
    __slots__ = ("w",)

    def __init__(self, w):
        self.w = w


class Shadowed:
    def scale(self):
        return 2.0

    def __init__(self, scale):
        self.scale = scale          # an instance attribute hiding the method


@dataclasses.dataclass
class Rec:
    w: np.ndarray
    b: float


def test_a_namedtuple_field_by_position():
    assert getattr_vjp(G, Pt(1.0, 2.0), "y")[0] is None
    assert getattr_vjp(G, Pt(1.0, 2.0), "y")[1] is G
    assert len(getattr_vjp(G, Pt(1.0, 2.0), "x")) == 2


def test_a_namedtuple_method_passes_the_cotangent_to_its_receiver():
    assert getattr_vjp(G, Pt(1.0, 2.0), "norm2") is G


def test_an_attribute_without_an_instance_dict_is_keyed_by_name():
    assert getattr_vjp(G, Slotted(np.ones(2)), "w") == {"w": G}


def test_an_instance_attribute_hiding_a_method_is_keyed_by_name():
    assert getattr_vjp(G, Shadowed(3.0), "scale") == {"scale": G}


FIELDS = ("w", "b")


def test_record_field_by_name_position_and_attribute():
    assert record_field(None, "w", 0, FIELDS) is None
    assert record_field({"b": G}, "b", 1, FIELDS) is G
    assert record_field({"b": G}, "w", 0, FIELDS) is None
    assert record_field((None, G), "b", 1, FIELDS) is G
    assert record_field([G, None], "w", 0, FIELDS) is G
    assert record_field(Rec(G, 2.0), "w", 0, FIELDS) is G
    assert record_field(Rec(G, 2.0), "b", 1, FIELDS) == 2.0


def test_record_field_reads_a_namedtuple_cotangent_by_name():
    """A NamedTuple cotangent (the argument's gradient shape) is read by field name,
    not by position: here the positions are swapped."""
    class Swapped(NamedTuple):
        b: float
        w: np.ndarray
    assert record_field(Swapped(2.0, G), "w", 0, FIELDS) is G


def test_record_field_refuses_an_attribute_that_is_not_a_field():
    with pytest.raises(TypeError, match=r"attribute \.extra"):
        record_field({"w": G, "extra": G}, "w", 0, FIELDS)
