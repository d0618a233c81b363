"""Issue 16, data: dataclasses and NamedTuples built from values being differentiated
(`p = Params(w=w * 2, b=b)`, then `p.w`, `p[0]`, unpacking, a helper or method reading
it), with scalar and array inputs, against finite differences; classes whose
constructor or attributes run code the compiler does not read stay refused."""
import collections
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from .case import case, floats, mixed, refused
from .data_values import both


@dataclass
class Params:
    w: object
    b: object = 0.5


@dataclass(frozen=True, kw_only=True)
class Frozen:
    w: object
    b: object


@dataclass
class Child(Params):
    c: object = 2.0


class Point(NamedTuple):
    x: object
    y: object = 1.0

    def norm2(self):
        return np.sum(self.x * self.x + self.y * self.y)


Pair = collections.namedtuple("Pair", "a b")


@both
def dataclass_by_keyword(x):
    p = Params(w=x * 2.0, b=np.sin(x))
    return np.sum(p.w * p.b + p.w)


@both
def dataclass_default_left_out(x):
    p = Params(x * 2.0)
    return np.sum(p.w * p.b)


@both
def frozen_keyword_only(x):
    p = Frozen(w=np.cos(x), b=x)
    return np.sum(p.w * p.b)


@both
def inherited_fields(x):
    p = Child(x, np.sin(x), x * x)
    return np.sum(p.w * p.b * p.c)


@both
def namedtuple_fields_and_index(x):
    p = Point(x * 2.0, np.sin(x))
    return np.sum(p.x * p.y + p[0])


@both
def namedtuple_unpacked(x):
    a, b = Point(x * 2.0, np.sin(x))
    return np.sum(a * b)


@both
def namedtuple_method(x):
    p = Point(np.tanh(x), x)
    return p.norm2()


@both
def collections_namedtuple(x):
    p = Pair(a=x, b=x * x)
    return np.sum(p.a * p.b + p[1])


def loss_of(p):
    return np.sum(p.w * p.w + p.b)


@both
def record_to_helper(x):
    p = Params(w=x * 3.0, b=np.tanh(x))
    return loss_of(p)


def make(x):
    return Point(x, x * 3.0)


@both
def record_from_helper(x):
    p = make(np.sin(x))
    return np.sum(p.x * p.y)


@both
def records_in_loop_and_list(x):
    ps = []
    for i in range(3):
        ps.append(Params(w=x * i, b=np.sin(x)))
    return sum(np.sum(p.w * p.b) for p in ps) + np.sum(ps[0].b)


@both
def same_array_in_two_fields(x):
    p = Params(w=x, b=x)
    return np.sum(p.w * p.b)


@both
def one_field_never_read(x):
    ps = [Params(x, x * 2.0), Params(np.sin(x), x)]
    return np.sum(ps[0].w * ps[1].w + ps[1].b)


@both
def nested_records(x):
    p = Params(w=Point(x, x * 2.0), b=[x, np.cos(x)])
    return np.sum(p.w.x * p.w[1] * p.b[1])


@case(mixed(lambda rng: [Params(rng.standard_normal(3), rng.standard_normal(3))]))
def record_from_a_record_argument(p):
    q = Params(w=p.w * 2.0, b=np.sin(p.b))
    return np.sum(q.w * q.b)


@dataclass
class Derived:
    w: object

    @property
    def double(self):
        return self.w * 2.0


@both
def record_with_property(x):            # (refused before: now through the getter)
    p = Derived(x)
    return np.sum(p.double)


@dataclass
class PostInit:
    w: object

    def __post_init__(self):
        self.w = self.w * 2.0


@both
def record_with_post_init(x):   # (refused before: frontend/constructors.py compiles it)
    return np.sum(PostInit(x).w)


class Plain:
    def __init__(self, w):
        self.w = w * 2.0


@both
def plain_class(x):          # (refused before: frontend/constructors.py compiles __init__)
    return np.sum(Plain(x).w)


@both
def namedtuple_replace(x):      # (refused before: now replace_fields, by position)
    p = Point(x * 2.0, np.sin(x))
    q = p._replace(x=x)
    return np.sum(q.x * q.y)


def _point_and_x(rng):
    return [Point(rng.standard_normal(3), float(rng.standard_normal())),
            rng.standard_normal(3)]


@case(mixed(_point_and_x))
def namedtuple_argument_rebuilt(p, x):
    q = Point(p.x * x, p.y)           # a record argument's fields into a new record
    return q.norm2() + np.sum(p[0] * q[0])


@case(mixed(lambda rng: [[Point(rng.standard_normal(2), rng.standard_normal(2)),
                          Point(rng.standard_normal(2), rng.standard_normal(2))]]))
def list_of_namedtuple_arguments(points):
    total = 0.0
    for p in points:
        total = total + p.norm2()
    return total + np.sum(points[0].x * points[1].y)


@case(mixed(lambda rng: [Params(rng.standard_normal(3), rng.standard_normal(3))]))
def dataclass_argument_unchanged_fields(p):
    q = Params(w=p.w, b=p.b)          # the same arrays in the new record
    return np.sum(q.w * p.w + q.b)


class State(NamedTuple):
    h: object
    c: object


@both
def recurrent_state_record(x):
    s = State(x, x * 0.5)
    for i in range(3):
        h, c = s
        c = c * 0.9 + np.tanh(h)
        s = State(np.tanh(c) * h, c)
    return np.sum(s.h + s[1])
