"""grad of a function returning a user object (session 32): `np.sum(obj)` of an object
that is no array is the object itself, so the output is not a number. The TypeError
names the class, the line of the return statement (the def's when there are several)
and the array to reduce instead."""
import dataclasses
import inspect

import numpy as np
import pytest

from transform import grad


@dataclasses.dataclass
class Box:
    w: np.ndarray


class Plain:
    def __init__(self, scale, w):
        self.scale, self.w = scale, w


def summed_record(x):
    box = Box(x * 2.0)
    return np.sum(box)


def summed_object(x):
    p = Plain(2.0, np.tanh(x))
    return np.sum(p)


def two_returns(x):
    if x[0] > 0:
        return Box(x)
    return Box(-x)


def line_of(fn, text):
    lines, first = inspect.getsourcelines(fn)
    return first + next(k for k, line in enumerate(lines) if text in line)


@pytest.mark.parametrize("fn, text, cls, field", [
    (summed_record, "return np.sum(box)", "Box", "w"),
    (summed_object, "return np.sum(p)", "Plain", "w"),
    (two_returns, "def two_returns", "Box", "w")], ids=["record", "object", "two_returns"])
def test_an_object_output_is_named_with_its_line(fn, text, cls, field):
    with pytest.raises(TypeError) as caught:
        grad(fn)(np.array([0.5, -1.0]))
    message = str(caught.value)
    assert message.startswith(f"grad needs a scalar output, but {fn.__name__}() "
                              f"({__file__}:{line_of(fn, text)}) returned a {cls} object; ")
    assert f"`np.sum(obj.{field})`" in message and "`np.sum(obj)` is `obj`" in message


def test_an_array_output_keeps_its_advice():
    def vector(x):
        return np.tanh(x)
    with pytest.raises(TypeError) as caught:
        grad(vector)(np.ones(3))
    assert str(caught.value) == (f"grad needs a scalar output, but vector() ({__file__}:"
                                 f"{line_of(vector, 'return np.tanh')}) returned ndarray of "
                                 "shape (3,); use vjp for non-scalar outputs")
