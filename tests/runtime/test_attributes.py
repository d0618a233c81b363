"""runtime/attributes.py (session 30, py30a): an attribute write as a new object, and a
method setting attributes of `self` run on a copy. The values and the rule's split of
the new object's cotangent, then gradients through both against finite differences
(tests/corpus/objects30.py has more programs)."""
import numpy as np
import pytest

import runtime
from runtime.attributes import call_writing_self, with_attribute
from tests.corpus import objects30 as O
from tests.gradcheck import POLICIES, check_grad


class Plain:
    def __init__(self, a, b):
        self.a, self.b = a, b

    def step(self, x, scale=1.0):
        self.a = self.a * x * scale
        return self.a + self.b


def test_with_attribute_copies_and_leaves_the_object():
    obj = Plain(1.0, 2.0)
    new = with_attribute(obj, "a", 5.0)
    assert new is not obj and type(new) is Plain
    assert (obj.a, obj.b) == (1.0, 2.0) and (new.a, new.b) == (5.0, 2.0)
    assert with_attribute(obj, "c", 3.0).c == 3.0 and not hasattr(obj, "c")


def test_with_attribute_rule_splits_the_cotangent():
    obj = Plain(1.0, 2.0)
    out, pullback = runtime.lookup(with_attribute).rrule(obj, "a", 5.0)
    assert out.a == 5.0 and obj.a == 1.0
    d_obj, d_name, d_value = pullback({"a": 3.0, "b": 4.0})
    assert d_obj == {"b": 4.0} and d_name is None and d_value == 3.0
    assert pullback({"a": 3.0}) == (None, None, 3.0)      # nothing left for the object
    assert pullback({"b": 4.0}) == ({"b": 4.0}, None, None)
    assert pullback(None) == (None, None, None)
    assert pullback(runtime.Thunk(lambda: {"a": 2.0})) == (None, None, 2.0)


def test_with_attribute_rule_reads_an_object_like_cotangent_by_attribute():
    _, pullback = runtime.lookup(with_attribute).rrule(Plain(1.0, 2.0), "b", 7.0)
    assert pullback(Plain(3.0, 4.0)) == ({"a": 3.0}, None, 4.0)
    held = {"a": runtime.Thunk(lambda: 6.0)}
    assert pullback(held)[0] == held and pullback({"b": runtime.Thunk(lambda: 8.0)})[2] == 8.0


def test_call_writing_self_runs_on_a_copy():
    obj = Plain(2.0, 1.0)
    out, new = call_writing_self(Plain.step, obj, 3.0, scale=0.5)
    assert out == 4.0 and new.a == 3.0 and new.b == 1.0
    assert new is not obj and obj.a == 2.0


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn", [O.rnn_step_in_a_loop, O.rnn_step_result_and_reset,
                                O.method_without_return_setting_self,
                                O.attribute_written_in_a_loop])
def test_gradients_through_attribute_writes(fn, policy):
    check_grad(fn, [np.array([0.3, -0.7, 0.5])], policy=policy)


def test_the_inactive_path_runs_the_method_on_a_copy():
    """Nothing differentiated reaches the object: the compiled code calls the stand-in
    as it is (call_writing_self), and the result is the primal's."""
    def constant_object(w):
        r = O.RNN(np.eye(3), np.ones(3))
        r.step(0.5)
        r.reset()
        r.step(1.0)
        return np.sum(r.h * w)
    w = np.array([0.3, -0.7, 0.5])
    check_grad(constant_object, [w])


def test_with_attribute_takes_complex_values():
    """Storing a value is linear: a complex one is fine (docs/complex.md)."""
    out, pullback = runtime.lookup(with_attribute).rrule(Plain(1.0, 2.0), "a", 1.0 + 2.0j)
    assert out.a == 1.0 + 2.0j and pullback({"a": 3.0 - 1.0j})[2] == 3.0 - 1.0j
