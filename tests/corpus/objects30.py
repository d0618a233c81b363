"""Issue 16, session 30 (py30a): attribute writes on objects the function makes.

`b.state = v` on a local object, and methods setting attributes of `self` (an RNN's
`step`) called on one, then read back (`r.h`) in the caller's loop: the object is
rebuilt with the new attribute (runtime/attributes.py; frontend/attribute_writes.py,
method_writes.py). Scalar and array inputs against finite differences under every
policy; an object another name, container, helper or closure also sees, and `+=` on
an attribute, stay refused."""
import numpy as np

from .case import case, floats, refused
from .data_values import both


class Box:
    pass


class Cell:
    def __init__(self, w, s):
        self.w = w
        self.s = s
        self.state = 0.0


class RNN:
    def __init__(self, W, U):
        self.W = W
        self.U = U
        self.h = np.zeros(len(U))

    def step(self, x):
        self.h = np.tanh(self.W @ self.h + self.U * x)
        return self.h

    def reset(self):
        self.h = self.h * 0.5


class Counter:
    def __init__(self, v):
        self.v = v
        self.total = 0.0

    def add(self, x):
        self.total = self.total + self.v * x


@both
def attribute_of_a_bare_object(w):
    b = Box()
    b.state = np.sin(w)
    b.state = b.state * w
    return np.sum(b.state)


@both
def attribute_written_in_a_loop(w):
    c = Cell(w, 2.0)
    for k in range(3):
        c.state = c.state + c.w * k + np.cos(c.state) * c.s
    return np.sum(c.state * c.w)


@case(floats((3,)))
def rnn_step_in_a_loop(w):
    r = RNN(np.outer(w, w) * 0.3, w)
    total = 0.0
    for t in range(3):
        r.step(0.5 * t)
        total = total + np.sum(r.h ** 2)
    return total


@case(floats((3,)))
def rnn_step_result_and_reset(w):
    r = RNN(np.eye(len(w)) * 0.5, w)
    r.step(1.0)
    r.reset()
    y = r.step(2.0)
    return np.sum(y) + np.sum(r.h * w)


@both
def method_without_return_setting_self(w):
    c = Counter(w * 2.0)
    for k in range(3):
        c.add(np.sin(w) + k)
    return np.sum(c.total)


@refused(floats((3,)), "a second name sees the object the method changes")
def rnn_step_seen_by_another_name(w):
    r = RNN(np.eye(len(w)), w)
    r2 = r
    r.step(1.0)
    return np.sum(r2.h)


@refused(floats((3,)), "a list holds the object the method changes")
def rnn_step_object_in_a_list(w):
    r = RNN(np.eye(len(w)), w)
    rs = [r]
    r.step(1.0)
    return np.sum(rs[0].h)


class Tally:
    def __init__(self):
        self.total = 0.0

    def bump(self, v):
        self.total += v


# `self.h += 1.0` on an array was refused here at compile time; since session 39
# (red40fix) `self.n += v` is rebound, a number computed (this case) and an array
# refused when the line runs, at the user's line (tests/red40/test_chained_methods.py)
@case(floats((3,)))
def augmented_attribute_in_a_method(w):
    t = Tally()
    t.bump(np.sum(w ** 2))
    t.bump(np.sum(np.sin(w)))
    return t.total


class Node:
    def __init__(self, v):
        self.v = v

    def me(self):
        return self

    def scaled(self, x):
        self.v = self.v * x
        return self


@refused(floats((3,)), "a method hands the object on: a second name would miss the write")
def object_given_away_by_a_method(w):
    b = Node(w)
    b2 = b.me()
    b.v = b.v * 3.0
    return np.sum(b2.v)


@refused(floats((3,)), "a method setting self returns the object: a second name")
def object_returned_by_a_method_setting_self(w):
    b = Node(w)
    c = b.scaled(2.0)
    b.v = b.v * 3.0
    return np.sum(c.v)


class Accumulated:
    def __init__(self, v):
        self.v = v

    def __iadd__(self, other):
        self.v = self.v + other
        return self


@refused(floats((3,)), "__iadd__ setting self: the hint says to return a new object")
def in_place_operator_setting_self(w):
    a = Accumulated(w * 2.0)
    a += np.sin(w)
    return np.sum(a.v)
