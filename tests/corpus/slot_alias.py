"""Augmented assignments on container slots and on values taken out of containers.

`xs[i] *= v` on a slot holding an array changes that array in place in Python, so every
other reference to it (another slot, another container, a name, the argument) sees the
change; the generated code gives the write value semantics. So it is accepted only when
the slot's array is one no other reference can see, and refused at the user's line
otherwise. A number in a slot is rebound (`counts[k] += 1`), never shared. The refused
cases were silent wrong values and gradients (or a TypeError at run time) before;
tests/corpus/test_slot_alias.py checks each refusal names the augmented assignment.
"""
import numpy as np
from typing import NamedTuple

from .case import case, floats, refused


class Pair(NamedTuple):
    a: np.ndarray
    b: np.ndarray


# ---- accepted: the slot's array is fresh and held once --------------------------------

@case(floats((3,)))
def fresh_slots_scaled(x):
    xs = [x * 1.0, x * 2.0]
    xs[0] *= 3.0
    return np.sum(xs[0] * xs[1])


@case(floats((3,)))
def fresh_dict_slot_added(x):
    d = {"a": np.sin(x), "b": x * 2.0}
    d["a"] += x
    return np.sum(d["a"] ** 2 + d["b"])


@case(floats((3,)))
def counts_of_numbers(x):
    counts = {}
    for k in ("a", "b", "a"):
        counts[k] = counts.get(k, 0) + 1
    counts["a"] += 1
    return np.sum(x) * counts["a"] + counts["b"]


@case(floats((3,)))
def appended_fresh_then_scaled(x):
    xs = []
    for i in range(3):
        xs.append(x * (i + 1.0))
    xs[1] *= 2.0
    return np.sum(xs[0] * xs[1] + xs[2])


@case(floats((3,)))
def popped_list_then_slot_added(x):
    xs = [x * 1.0, x * 2.0, x * 3.0]
    xs.pop(0)
    xs[0] += x
    return np.sum(xs[0] ** 2)


# ---- refused: another reference sees the slot's array ----------------------------------

@refused(floats((3,)), "two slots hold the argument")
def two_slots_of_the_argument(x):
    xs = [x, x]
    xs[0] *= 2.0
    return np.sum(xs[1])


@refused(floats((3,)), "two slots of one display hold y")
def two_slots_of_one_array(x):
    y = np.sin(x)
    xs = [y, y]
    xs[0] *= 2.0
    return np.sum(xs[1] ** 2)


@refused(floats((3,)), "insert puts y in a second slot")
def inserted_twice(x):
    y = x * 1.0
    xs = [y]
    xs.insert(0, y)
    xs[0] *= 3.0
    return np.sum(xs[1])


@refused(floats((3,)), "setdefault puts y in a second slot")
def setdefault_twice(x):
    y = x * 1.0
    d = {"a": y}
    d.setdefault("b", y)
    d["a"] *= 3.0
    return np.sum(d["b"])


@refused(floats((3,)), "update puts y in two slots")
def updated_twice(x):
    y = x * 1.0
    d = {"a": x}
    d.update(a=y, b=y)
    d["a"] *= 2.0
    return np.sum(d["b"] ** 2)


@refused(floats((3,)), "a list repeated by `* 2` holds y twice")
def repeated_list(x):
    xs = [x * 1.0] * 2
    xs[0] *= 3.0
    return np.sum(xs[1])


@refused(floats((3,)), "a dict comprehension stores y under every key")
def dict_comprehension_of_one_array(x):
    y = np.sin(x)
    d = {k: y for k in "ab"}
    d["a"] *= 2.0
    return np.sum(d["b"] ** 2)


@refused(floats((3,)), "a dict comprehension's value is also the name y")
def dict_comprehension_then_name(x):
    y = np.sin(x)
    d = {k: y for k in "ab"}
    d["a"] *= 2.0
    return np.sum(y ** 2)


@refused(floats((3,)), "dict(a=y, b=y) holds y twice")
def dict_call_twice(x):
    y = np.cos(x)
    d = dict(a=y, b=y)
    d["b"] += x
    return np.sum(d["a"] * 2.0)


@refused(floats((3,)), "a copy of the list holds the same arrays")
def copied_list_slot(x):
    xs = [x * 1.0, x * 2.0]
    ys = list(xs)
    ys[0] *= 3.0
    return np.sum(xs[0] + ys[0])


@refused(floats((3,)), "appending y twice in a loop")
def appended_in_a_loop(x):
    y = x * 1.0
    xs = []
    for _ in range(2):
        xs.append(y)
    xs[0] *= 2.0
    return np.sum(xs[1])


# ---- refused: a value taken out of a container, then `v op= ...` ----------------------

@refused(floats((3,)), "the popped value is still in the other slot")
def dict_popped_then_scaled(x):
    y = x * 1.0
    d = {"a": y, "b": y}
    v = d.pop("a")
    v *= 2.0
    return np.sum(d["b"] ** 2)


@refused(floats((3,)), "the popped value is still in the other slot")
def list_popped_then_scaled(x):
    y = x * 1.0
    xs = [y, y]
    a = xs.pop()
    a *= 2.0
    return np.sum(xs[0] ** 2)


@refused(floats((3,)), "a record's field is the record's array")
def record_field_scaled(x):
    y = x * 1.0
    p = Pair(y, x)
    q = p.a
    q *= 3.0
    return np.sum(p.a ** 2)


@refused(floats((3,)), "setdefault returns the stored array")
def setdefault_result_scaled(x):
    d = {}
    v = d.setdefault("a", x * 1.0)
    v *= 2.0
    return np.sum(d["a"] ** 2)
