"""`match` with class patterns (transform/frontend/match.py, session 29): keyword
sub-patterns (`case Circle(r=r):`), positional ones by `__match_args__` (dataclasses and
NamedTuples), literal sub-patterns (`case Shape(kind="disc", size=s):`), guards that
fall through, classes tried in turn as isinstance does (a subclass matches its base's
pattern), `case float(v):` of a builtin type; the captured attributes carry the
derivative. Scalar and array inputs against finite differences under every policy;
nested and mapping patterns stay refused."""
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from .case import floats, refused
from .data_values import both


@dataclass
class Circle:
    r: object


@dataclass
class Box:
    w: object
    h: object


@dataclass
class Square(Box):
    pass


@dataclass
class Shape:
    kind: str
    size: object


class Pair(NamedTuple):
    a: object
    b: object


def area(s):
    match s:
        case Circle(r=r):
            return np.pi * r * r
        case Box(w, h) if np.all(w > -100.0):
            return w * h
        case _:
            return 0.0


@both
def keyword_and_positional_class_patterns(x):
    return np.sum(area(Circle(x)) + area(Box(np.sin(x), x * x)) + area(3.0))


@both
def subclass_matches_its_base_pattern(x):
    return np.sum(area(Square(x, np.cos(x))))


@both
def literal_sub_pattern_then_capture(x):
    total = 0.0
    for s in [Shape("disc", x), Shape("rod", x * 2.0), Shape("disc", np.exp(x))]:
        match s:
            case Shape(kind="disc", size=r):
                total = total + np.sum(r * r)
            case Shape(size=length):
                total = total + np.sum(np.sin(length))
    return total


@both
def namedtuple_positional_with_guard(x):
    p = Pair(x * 3.0, np.tanh(x))
    match p:
        case Pair(a, b) if np.sum(a) > 1e9:
            return np.sum(a)
        case Pair(a, _):
            return np.sum(a * p.b)
    return 0.0


@both
def builtin_type_pattern_binds_the_subject(x):
    v = float(np.sum(x))
    match v:
        case int(n):
            return v * n
        case float(f):
            return f * f
    return 0.0


@refused(floats((3,)), "a class pattern nested in a class pattern")
def nested_class_pattern(x):
    match Box(Circle(x), x):
        case Box(Circle(r=r), h):
            return np.sum(r * h)
    return 0.0


@refused(floats((3,)), "a mapping pattern")
def mapping_pattern(x):
    match {"w": x}:
        case {"w": w}:
            return np.sum(w)
    return 0.0
