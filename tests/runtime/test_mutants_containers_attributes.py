"""Behaviour the mutation run (session 27) found unpinned in runtime/containers.py: the
refusals of computed attributes (a getter with no Python source; a getter that gives
another value when run again), their value comparison (NaN equals NaN; ragged lists,
tuples and dicts entry by entry: these were refused as "another value", a bug found
here), `_replace` on a record that is not a NamedTuple, and `_replace`'s zero
cotangent; also runtime/callees.py's refusal when no compiler is there for a closure."""
import operator
from collections import namedtuple

import numpy as np
import pytest

from runtime import callees
from runtime.closures import Closure
from runtime.containers import _replace_fields_rule
from tests.fd import assert_close, numerical_grad
from tests.gradcheck import POLICIES
from transform import grad, vjp

SCALE = [1.0]


class Holder:
    def __init__(self, w):
        self.w = w

    total = property(operator.attrgetter("w"))        # a getter with no Python source

    @property
    def scaled(self):
        return self.w * SCALE[0]

    @property
    def holes(self):
        return np.where(self.w > 0, self.w, np.nan)

    @property
    def parts(self):
        return [self.w[:2], self.w[2:]]

    @property
    def pair(self):
        return (self.w[0], {"k": self.w[1:]})

    @property
    def stored(self):
        return self.w                       # the same object when run again

    @property
    def child(self):
        return Holder(self.w * 2)           # an equal object, made again


W = np.array([0.5, -1.0, 2.0, 0.3, -0.2])


def through_attrgetter(w):
    return np.sum(Holder(w).total * 2)


def test_a_getter_without_python_source_is_refused():
    with pytest.raises(TypeError, match="no Python source"):
        grad(through_attrgetter)(W)


def scaled_sum(w):
    return np.sum(Holder(w).scaled ** 2)


def test_a_getter_whose_value_changed_before_the_backward_sweep_is_refused():
    SCALE[0] = 1.0
    try:
        value, pullback = vjp(scaled_sum, W)
        SCALE[0] = 2.0
        with pytest.raises(TypeError, match="another value"):
            pullback(1.0)
    finally:
        SCALE[0] = 1.0


MODE = ["array"]


class Shifty:
    def __init__(self, w):
        self.w = w

    @property
    def values(self):
        return self.w * 1.0 if MODE[0] == "array" else list(self.w)


def shifty_sum(w):
    return np.sum(Shifty(w).values) * 2.0


def test_a_getter_giving_another_type_when_run_again_is_refused():
    """Equal entries, another type (an array, then a list): not the value read."""
    MODE[0] = "array"
    try:
        value, pullback = vjp(shifty_sum, W)
        MODE[0] = "list"
        with pytest.raises(TypeError, match="another value"):
            pullback(1.0)
    finally:
        MODE[0] = "array"


def nan_entries(w):
    return np.nansum(Holder(w).holes ** 2)


def ragged_parts(w):
    a, b = Holder(w).parts
    return np.sum(a ** 2) + np.sum(b)


def tuple_with_dict(w):
    x, d = Holder(w).pair
    return x * 3 + np.sum(d["k"] ** 2)


def stored_value(w):
    return np.sum(Holder(w).stored ** 2)


def child_object(w):
    return np.sum(np.sin(Holder(w).child.w))


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("f", [nan_entries, ragged_parts, tuple_with_dict, stored_value,
                               child_object],
                         ids=lambda f: f.__name__)
def test_a_getter_giving_the_same_value_again_is_differentiated(f, policy):
    """The same value, NaN entries included, and containers that are not arrays."""
    assert_close(grad(f, policy=policy)(W), numerical_grad(f, [W], 0))


class NotARecord:
    def __init__(self, a):
        self.a = a

    def _replace(self, a):
        return NotARecord(a)


def replaced_user_object(w):
    return np.sum(NotARecord(w)._replace(a=w * 2).a)


def test_replace_on_an_object_that_is_not_a_named_tuple_is_refused():
    with pytest.raises(TypeError, match="only a NamedTuple"):
        grad(replaced_user_object)(W)


Point = namedtuple("Point", "x y z")


def test_replace_with_a_zero_cotangent_gives_zero_for_every_input():
    """(record, names, then each new value): four positions for two replaced fields."""
    out, pullback = _replace_fields_rule(Point(1.0, 2.0, 3.0), ("x", "z"), 5.0, 6.0)
    assert out == Point(5.0, 2.0, 6.0)
    assert pullback(None) == (None, None, None, None)


def test_a_closure_passed_to_a_rule_needs_the_compiler(monkeypatch):
    monkeypatch.setattr(callees, "_CLOSURE_VJP", [])
    closure = Closure(lambda w, t: t * w, (2.0,))
    with pytest.raises(TypeError, match="closure passed to a rule needs"):
        callees.value_vjp(closure, (0,), 3.0)


class _SubArray(np.ndarray):
    """An ndarray subclass that keeps ndarray's own (C) methods."""


class _SubArrayWithSum(np.ndarray):
    def sum(self):
        return 0.0


class _Dist:
    mean = staticmethod(lambda: 2.0)     # not a plain function on the class


def test_is_user_object_tells_its_own_methods_from_ndarrays():
    """`m.sum()` of an ndarray subclass is ndarray's (np.sum's rule) unless the subclass
    defines it; any method of a user object is its own, however it is defined."""
    from runtime.containers import is_user_object
    assert not is_user_object(np.ones(2).view(_SubArray), "sum")
    assert is_user_object(np.ones(2).view(_SubArrayWithSum), "sum")
    assert is_user_object(_Dist(), "mean")
    assert not is_user_object(np.ones(2), "sum") and not is_user_object([1.0], "sum")
