"""Issue 16, the rest of the containers and generators: `list.remove`, `dict.popitem`,
a NamedTuple's `_replace` given differentiated values, generator functions walked
through `enumerate`; scalar and array variants, every policy, against finite
differences. `zip` over a generator stays refused (it may read it in part)."""
from typing import NamedTuple

import numpy as np

from .case import case, floats, refused
from .data_values import both


@both
def list_remove_by_identity(x):
    xs = [x, x * 2.0, np.sin(x)]
    xs.remove(xs[0])                  # identity: the first item, whatever its value
    return np.sum(xs[0] * xs[1]) * len(xs)


@both
def list_remove_names_then_read(x):
    names = ["w", "b", "c"]
    names.remove("b")
    d = {"w": x, "b": x * 2.0, "c": np.cos(x)}
    return sum(np.sum(d[n] * d[n]) for n in names)


@both
def list_remove_in_loop(x):
    pending = [x, np.sin(x), x * 3.0, np.exp(x)]
    total = 0.0
    while len(pending) > 1:
        head = pending[0]
        pending.remove(head)
        total = total + np.sum(head * pending[0])
    return total


@both
def dict_popitem_unpacked(x):
    d = {"a": x, "b": x * 3.0, "c": np.sin(x)}
    key, last = d.popitem()
    return np.sum(last * d["a"]) + np.sum(d["b"]) * len(d) + len(key)


@both
def dict_popitem_until_empty(x):
    d = {"a": x, "b": np.cos(x)}
    total = 0.0
    while d:
        pair = d.popitem()
        total = total + np.sum(pair[1] * x)
    return total


class State(NamedTuple):
    pos: object
    vel: object
    t: float = 0.0


@both
def namedtuple_replace_steps(x):
    s = State(x, np.sin(x))
    for _ in range(3):
        s = s._replace(pos=s.pos + 0.1 * s.vel, vel=s.vel - 0.1 * s.pos)
    return np.sum(s.pos * s.vel) + s.t


@both
def namedtuple_replace_one_field(x):
    s = State(x * 2.0, x)
    q = s._replace(vel=np.tanh(x))
    return np.sum(q.pos * q.vel + s.vel)


def powers(x, n):
    for k in range(n):
        yield x ** (k + 1)


@both
def generator_through_enumerate(x):
    total = 0.0
    for i, p in enumerate(powers(x, 3)):
        total = total + np.sum(p) * (i + 1)
    return total


@both
def generator_through_enumerate_comprehension(x):
    return sum(np.sum(p) / (i + 1) for i, p in enumerate(powers(np.sin(x), 4)))


@both   # session 29: a generator that surely ends and prints nothing (zip_generators16.py)
def generator_through_zip(x):
    total = 0.0
    for a, b in zip(powers(x, 3), powers(x, 5)):
        total = total + np.sum(a * b)
    return total


def _x_and_rows(rng):
    return [rng.standard_normal(3), [rng.standard_normal(3), rng.standard_normal(3)]]


@case(_x_and_rows)
def starred_list_of_unknown_length(x, rows):      # `*rows` of any length: concatenation
    return np.sum(np.stack([*rows, x]) ** 2)


@case(floats((2, 3)))
def starred_array_rows(m):
    rows = [np.sin(m[0]), *m, m[1] * 2.0]
    return np.sum(np.stack(rows) * np.arange(4.0)[:, None])


@both
def starred_tuple_and_growing_list(x):
    ys = []
    for k in range(3):
        ys = [*ys, x * k]
    t = (*ys, np.cos(x))
    return np.sum(t[1] * t[3] + t[2])
