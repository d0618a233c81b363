"""Programs a red team wrote against issue 16's data and statements (round 25): each
crashed inside the compiler or the generated code, and is now right or refused at the
user's line. (Slot aliasing has its own file, slot_alias.py; print order with printing
generators is checked by test_print_order.py.)"""
from typing import NamedTuple

import numpy as np

from .case import case, floats, refused


class Scaled(NamedTuple):
    w: np.ndarray
    scale: float = 2.0


# ---- a tuple or NamedTuple stored into a dict or list slot (crashed in unbroadcast) ----

@case(floats((3,)))
def tuple_written_into_a_dict(x):
    d = {}
    d["p"] = (x, 2.0)
    return np.sum(d["p"][0]) * d["p"][1]


@case(floats((3,)))
def tuple_of_arrays_written_into_a_dict(x):
    d = {"q": 1.0}
    d["p"] = (x, x * 2.0)
    return np.sum(d["p"][0] * d["p"][1]) + d["q"]


@case(floats((3,)))
def tuple_written_into_a_list(x):
    xs = [None]
    xs[0] = (x, 2.0)
    return np.sum(xs[0][0]) * xs[0][1]


@case(floats((3,)))
def tuple_given_to_update(x):
    d = {}
    d.update(p=(np.sin(x), 2.0))
    return np.sum(d["p"][0]) * d["p"][1]


@case(floats((3,)))
def tuple_given_to_setdefault(x):
    d = {}
    p = d.setdefault("p", (x, 3.0))
    return np.sum(p[0] ** 2) * p[1]


@case(floats((3,)))
def tuple_popped_from_a_dict(x):
    d = {"a": (x, 2.0), "b": (x * 2.0, 1.0)}
    p = d.pop("a")
    return np.sum(p[0]) * p[1] + np.sum(d["b"][0])


@case(floats((3,)))
def named_tuples_given_to_update(x):
    d = {}
    d.update(p=Scaled(x), q=Scaled(x * 3.0))
    return np.sum(d["p"].w * d["q"].w) * d["p"].scale


# ---- keywords given to a helper with **kwargs (an internal AttributeError) -------------

def _with_rest(a, **rest):
    return np.sum(a ** 2) + len(rest)


def _scaled_by_rest(a, **rest):
    return np.sum(a * rest["b"])


@case(floats((3,)))
def keyword_to_a_helper_with_kwargs(x):
    return _with_rest(a=x)


@case(floats((3,)))
def constant_keyword_into_kwargs(x):
    return _with_rest(x, b=1.0, c="label")


@case(floats((3,)))
def spread_dict_to_a_helper_with_kwargs(x):
    p = {"a": np.tanh(x)}
    return _with_rest(**p)


@refused(floats((3,)), "a differentiated value bound into **rest")
def differentiated_keyword_into_kwargs(x):
    return _scaled_by_rest(x, b=x * 2.0)


# ---- a nested def returning a lambda over its parameter (a NameError) ------------------

@case(floats((3,)))
def nested_def_returns_a_lambda(x):
    def power(k):
        return lambda z: z ** k
    return np.sum(power(3)(x)) + np.sum(power(2)(x))
