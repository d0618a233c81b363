"""Behaviour the session-29 mutation run found unpinned in runtime/containers.py:
`same_value` (now runtime/same_value.py), which decides whether a computed attribute's
getter, run again in the backward sweep, gave the value the forward sweep read (a list
with a changed entry, a number that came back as an array, a string beside an array, an
object it cannot compare), and `_replace` on an object that has `_fields` but is no tuple."""
import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad
from tests.gradcheck import POLICIES
from transform import grad, vjp

W = np.array([0.5, -1.0, 2.0, 0.3, -0.2])
STATE = {"scale": 1.0, "mode": "first"}


class Slotted:
    """No __dict__: same_value cannot compare two of these entry by entry."""
    __slots__ = ("v",)

    def __init__(self, v):
        self.v = v


class Holder:
    def __init__(self, w):
        self.w = w

    @property
    def parts(self):                   # a list of arrays of one length: one entry scaled
        return [self.w[:2] * STATE["scale"], self.w[2:4]]

    @property
    def first(self):                   # a NumPy number, then a 0-d array of that value
        v = self.w[0] * 1.0
        return v if STATE["mode"] == "first" else np.asarray(v)

    @property
    def labelled(self):                # a string (made afresh each run) beside the array
        return ("keys " + str(len(STATE) * 100), self.w * 2.0)

    @property
    def boxed(self):                   # an object without __dict__ beside the array
        return (Slotted(STATE["scale"]), self.w * 2.0)


def parts_loss(w):
    a, b = Holder(w).parts
    return np.sum(a ** 2) + np.sum(b * 3.0)


def first_loss(w):
    return Holder(w).first * 3.0 + np.sum(w)


def labelled_loss(w):
    name, v = Holder(w).labelled
    return np.sum(v ** 2)


def boxed_loss(w):
    box, v = Holder(w).boxed
    return np.sum(v ** 2)


def _refused_when_changed(f, key, before, after):
    STATE[key] = before
    try:
        value, pullback = vjp(f, W)
        STATE[key] = after
        with pytest.raises(TypeError, match="another value"):
            pullback(1.0)
    finally:
        STATE["scale"], STATE["mode"] = 1.0, "first"


def test_a_list_whose_entry_changed_is_another_value():
    """Same length, one entry scaled between the sweeps (containers.py:308 `and`)."""
    _refused_when_changed(parts_loss, "scale", 1.0, 2.0)


def test_a_number_that_comes_back_as_an_array_is_another_value():
    """np.float64 then a 0-d array of the same value: another type (:305's inner `and`)."""
    _refused_when_changed(first_loss, "mode", "first", "array")


def test_an_object_it_cannot_compare_is_another_value():
    """A slotted object (no __dict__, not an array) whose state changed (:316 `False`)."""
    _refused_when_changed(boxed_loss, "scale", 1.0, 2.0)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("f", [parts_loss, first_loss, labelled_loss],
                         ids=lambda f: f.__name__)
def test_thesame_value_again_is_differentiated(f, policy):
    """Unchanged lists, numbers and a string beside an array compare equal (:316 `==`)."""
    assert_close(grad(f, policy=policy)(W), numerical_grad(f, [W], 0))


class FieldsButNoTuple:
    """Has `_fields` and `_replace`, like a NamedTuple, but is a plain object."""
    _fields = ("a",)

    def __init__(self, a):
        self.a = a

    def _replace(self, a):
        return FieldsButNoTuple(a)


def replaced_fields_object(w):
    return np.sum(FieldsButNoTuple(w)._replace(a=w * 2).a)


def test_replace_on_an_object_with_fields_that_is_no_tuple_is_refused():
    """Only a tuple with `_fields` is a record (containers.py:332 `or`)."""
    with pytest.raises(TypeError, match="only a NamedTuple"):
        grad(replaced_fields_object)(W)
