"""runtime/forward.py, the helpers generated forward-mode code calls (issue 20):
zero_tangent's kinds and dtypes, stored_tangent never writing into its argument,
broadcast_to_output refusing container outputs, receiver_tangent giving NumPy scalars'
tangents their methods."""
import collections
import dataclasses

import numpy as np
import pytest

from runtime import forward
from runtime.forward import (attribute_tangent, broadcast_to_output, receiver_tangent,
                             stored_tangent, zero_tangent)

Pair = collections.namedtuple("Pair", "a b")


def test_zero_tangent_arrays_keep_float_dtypes_and_shapes():
    z = zero_tangent(np.full((2, 3), np.inf, dtype=np.float32))
    assert z.dtype == np.float32 and z.shape == (2, 3) and not np.any(z)
    c = zero_tangent(np.ones(2, dtype=complex))
    assert c.dtype == complex and not np.any(c)
    i = zero_tangent(np.arange(3))
    assert i.dtype == np.float64 and i.shape == (3,) and not np.any(i)


@pytest.mark.parametrize("value, want, kind", [
    (2.5, 0.0, float), (3, 0.0, float), (np.int64(3), 0.0, float),
    (np.float32(1.5), 0.0, np.float32), (np.float64(2.0), 0.0, np.float64),
])
def test_zero_tangent_numbers(value, want, kind):
    z = zero_tangent(value)
    assert z == want and type(z) is kind


@pytest.mark.parametrize("value", [True, np.bool_(False), "text", None, object()])
def test_zero_tangent_of_what_carries_no_derivative_is_none(value):
    assert zero_tangent(value) is None


def test_zero_tangent_containers_keep_their_structure():
    z = zero_tangent((1.0, [np.ones(2), {"k": 2.0, "s": "x"}], Pair(1.0, np.ones(1))))
    assert type(z) is tuple and type(z[1]) is list and type(z[2]) is Pair
    assert z[0] == 0.0 and np.array_equal(z[1][0], np.zeros(2))
    assert z[1][1] == {"k": 0.0, "s": None}
    assert z[2].a == 0.0 and np.array_equal(z[2].b, np.zeros(1))


def test_stored_tangent_copies_arrays_lists_and_dicts():
    base = np.zeros(3)
    base.setflags(write=False)
    out = stored_tangent(base, slice(1, None), np.array([1.0, 2.0]))
    assert np.array_equal(out, [0.0, 1.0, 2.0]) and not np.any(base)
    items = [1.0, 2.0]
    assert stored_tangent(items, 0, 5.0) == [5.0, 2.0] and items == [1.0, 2.0]
    table = {"a": 1.0}
    assert stored_tangent(table, "b", 2.0) == {"a": 1.0, "b": 2.0} and table == {"a": 1.0}
    scalar_base = stored_tangent(np.float64(0.0) + np.zeros(2), 0, 3.0)
    assert np.array_equal(scalar_base, [3.0, 0.0])


@pytest.mark.parametrize("ans", [[1.0, 2.0], (1.0,), {"a": 1.0}])
def test_broadcast_to_output_refuses_container_outputs(ans):
    with pytest.raises(TypeError, match="forward mode"):
        broadcast_to_output(1.0, ans)


def test_broadcast_to_output_shapes():
    t = np.ones(3)
    assert broadcast_to_output(t, np.zeros(3)) is t
    wide = broadcast_to_output(np.array([1.0, 2.0, 3.0]), np.zeros((2, 3)))
    assert wide.shape == (2, 3) and np.array_equal(wide[1], [1.0, 2.0, 3.0])
    assert broadcast_to_output(2.0, 5.0) == 2.0


def test_receiver_tangent():
    t = receiver_tangent(1.5, np.float64(2.0))
    assert isinstance(t, np.ndarray) and t.mean() == 1.5
    arr = np.ones(2)
    assert receiver_tangent(arr, np.zeros(2)) is arr
    assert receiver_tangent(1.5, np.zeros(())).mean() == 1.5
    for receiver in ([1.0], 2.0):                   # not NumPy's: as it is
        assert receiver_tangent(1.5, receiver) == 1.5
        assert type(receiver_tangent(1.5, receiver)) is float
    scalar = np.float32(1.0)
    assert receiver_tangent(scalar, np.float64(1.0)) is scalar


@dataclasses.dataclass
class Record:
    w: float
    b: float = 1.0

    @property
    def double(self):
        return 2.0 * self.w


class Plain:
    def __init__(self, w):
        self.w = w

    @property
    def square(self):
        return self.w ** 2


def test_attribute_tangent_reads_stored_fields_and_refuses_computed_ones(monkeypatch):
    monkeypatch.delitem(forward.PROVIDED, "getter_jvp", raising=False)
    assert attribute_tangent(Record(3.0, 4.0), Record(1.0), "b") == 4.0
    assert attribute_tangent(Pair(5.0, 6.0), Pair(1.0, 2.0), "b") == 6.0
    assert attribute_tangent(Plain(7.0), Plain(1.0), "w") == 7.0
    for obj, name in ((Record(1.0), "double"), (Plain(1.0), "square"), (Pair(1, 2), "count")):
        with pytest.raises(TypeError, match="computed by code"):
            attribute_tangent(obj, obj, name)
    with pytest.raises(TypeError, match="computed"):
        attribute_tangent(Record, Record, "w")       # the class, not an instance


def test_attribute_tangent_of_arrays():
    x, t = np.arange(6.0).reshape(2, 3), np.ones((2, 3)) * np.arange(3)
    assert np.array_equal(attribute_tangent(t, x, "T"), t.T)
    assert np.array_equal(attribute_tangent(t, x, "real"), t)
    assert attribute_tangent(t, x, "shape") == (0.0, 0.0)
    assert attribute_tangent(t, x, "ndim") == 0.0
    with pytest.raises(TypeError, match="computed"):
        attribute_tangent(t, x, "flat")


def test_zero_tangent_of_a_dataclass_record():
    record = Record(2.0, np.ones(2))
    zero = zero_tangent(record)
    assert type(zero) is Record and zero.w == 0.0 and np.array_equal(zero.b, np.zeros(2))
    assert record.w == 2.0 and np.array_equal(record.b, np.ones(2))
    frozen = dataclasses.make_dataclass("Frozen", ["a"], frozen=True)(3.0)
    assert zero_tangent(frozen).a == 0.0 and frozen.a == 3.0


class Fielded:
    _fields = ("square",)           # not a NamedTuple: the name alone proves nothing

    def __init__(self, w):
        self.w = w

    @property
    def square(self):
        return self.w ** 2


@pytest.mark.parametrize("obj, name", [(Fielded(2.0), "square"), ((1.0, 2.0), "count")])
def test_attribute_tangent_needs_a_real_record(obj, name, monkeypatch):
    monkeypatch.delitem(forward.PROVIDED, "getter_jvp", raising=False)
    with pytest.raises(TypeError, match="computed by code"):
        attribute_tangent(obj, obj, name)


def test_a_python_property_goes_to_the_provided_getter_jvp(monkeypatch):
    calls = []
    monkeypatch.setitem(forward.PROVIDED, "getter_jvp",
                        lambda getter, obj, t: calls.append((getter, obj, t)) or (9.0, 42.0))
    obj, tangent = Plain(3.0), Plain(0.5)
    assert attribute_tangent(tangent, obj, "square") == 42.0
    assert calls == [(Plain.square.fget, obj, tangent)]
    with pytest.raises(TypeError, match="computed"):       # not a property: refused
        attribute_tangent((1.0, 2.0), (1.0, 2.0), "count")
