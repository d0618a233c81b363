"""`match` with sequence patterns of literals, captures and `_` (`case ("scale", k):`),
with guards that fall through to later cases, a subject holding values being
differentiated, a string subject (not a sequence to `match`); scalar and array variants
(transform/frontend/match.py)."""
import numpy as np

from .case import case, floats, given, mixed, refused


@case(mixed(floats((4,)), given(("scale", 1.7))))
def match_tuple_literal_and_capture(x, mode):
    match mode:
        case ("scale", k):
            return np.sum(x) * k
        case ("shift", k, _):
            return np.sum(x + k)
        case _:
            return np.sum(x)


@case(mixed(floats((4,)), given(["shift", 0.5, None])))
def match_list_subject_three_items(x, mode):
    match mode:
        case ("scale", k):
            return np.sum(x) * k
        case ("shift", k, None):
            return np.sum(np.tanh(x + k))
        case _:
            return np.sum(x)


@case(mixed(floats((4,)), given(("scale", 1.7))))
def match_guard_falls_through(x, mode):
    match mode:
        case ("scale", k) if k > 5:
            r = np.sum(x ** 2) * k
        case ("scale", k):
            r = np.sum(np.sin(x)) * k
        case None:
            r = 0.0
        case _:
            r = np.sum(x)
    return r


@case(floats(()))
def match_string_is_not_a_sequence(x):
    match "ab":
        case ("a", "b"):
            return x
        case _:
            return x ** 2


@case(floats((3,), ()))
def match_pair_of_differentiated_values(x, y):
    pair = (x * 2.0, y * np.sum(x))
    match pair:
        case (v, s):
            return np.sum(v * s)
        case _:
            return 0.0


class Scale:
    def __init__(self, k):
        self.k = k


@case(floats((3,)))   # session 29: class patterns work (match_classes16.py)
def match_class_pattern(x):
    match Scale(2.0):
        case Scale(k=k):
            return np.sum(x) * k
    return 0.0


@refused(floats((3,)), "a star inside a sequence pattern")
def match_star_pattern(x):
    match (1.0, 2.0, 3.0):
        case (first, *rest):
            return np.sum(x) * first
    return 0.0


@refused(floats((3,)), "a mapping pattern")
def match_mapping_pattern(x):
    match {"k": 2.0}:
        case {"k": k}:
            return np.sum(x) * k
    return 0.0
