"""hvp's forward-over-reverse route through the backward loops reverse mode writes
(`popped(pop, n)` headers, `reversed_enumerate`/`reversed_zip`/`reversed_prefix`
walks, a cotangent list's pops: transform/flat_loops.py, flat_gradient.py) and the
cotangent helpers given rules with JVPs (runtime/rules/reverse_containers.py): H v
against central finite differences of grad (tests/fd.py, float64) and equal to the
default route's."""
from typing import NamedTuple

import numpy as np
import pytest

from tests.fd import assert_close, numerical_jvp
from tests.gradcheck import rng
from transform import grad, hvp


def carried(x):                     # for y in popped(pop, len(steps1))
    y = x
    for _ in range(4):
        y = np.sin(y) + 0.5 * x
    return np.sum(y * y)


def grown_list(x):                  # appends walked back: dxs.pop(), reversed_enumerate
    xs = []
    for k, v in enumerate(x):
        xs.append(v * v + k)
    total = 0.0
    for k, v in enumerate(xs):
        total = total + v * x[k]
    return total + xs.pop() * x[0]


def zipped(x, y):                   # reversed_zip, a tape entry per step
    s = 0.0
    for a, b in zip(x, y):
        s = s + np.sin(a * b) * s + a
    return s


def enumerate_zipped(x, w):         # enumerate(zip(..)): a zip with range(0, 2 ** 62),
    total = 0.0                     # once listed whole by the backward walk (MemoryError)
    for i, (a, b) in enumerate(zip(x, w), 1):
        total += i * a * np.exp(b) * a
    return total


def rows_then_x(x, y):             # `[*rows, x]`: concatenation, the zeros first (hvp
    rows = [np.cos(y), y]           # gave zeros for x: session 37)
    return np.sum(np.stack([*rows, np.sin(x) * x]) ** 2)


def nested_indices(A):              # i, j read back from the tape as an index
    s = 0.0
    for i in range(2):
        for j in range(3):
            s = s + A[i, j] * A[j, i] * (i + j + 1)
    return s


def builtins_over_lists(x):         # sum, max, sorted, list of a list of numbers
    xs = [x[0] * x[1], np.sin(x[2]), x[1] ** 2]
    ys = sorted(xs)
    return sum(xs) * max(xs) + ys[0] * ys[2] + sum(list(xs)) ** 2


def arrays_of_lists(x):             # np.array and np.stack of lists, np.concatenate
    rows = [np.sin(x), x * x]
    M = np.array(rows)
    S = np.stack([x, np.cos(x)], axis=1)
    c = np.concatenate([x, x ** 3])
    return np.sum(M ** 2) + np.sum(S[:, 0] * S[:, 1]) + np.sum(c * c)


def linear_algebra(W, v):           # np.dot's, np.diag's and np.trace's cotangents
    h = np.tanh(np.dot(W, v))
    return np.dot(h, h) + np.trace(W @ W) * np.sum(np.diag(W) ** 2) + \
        np.sum(np.diag(np.sin(v)) @ W)


class Pair(NamedTuple):
    w: np.ndarray
    b: float


def fields(x):                      # a NamedTuple's fields read by name (getattr_vjp)
    p = Pair(np.sin(x), x[0] * x[1])
    return np.sum(p.w * p.w) * p.b + p.b ** 3


def dict_union(x):                  # `x | y` of dicts (union_vjp)
    d = {"a": x * x, "b": np.sin(x)} | {"b": np.cos(x), "c": x ** 3}
    return np.sum(d["a"] * d["b"]) + np.sum(d["c"] * d["a"])


def dict_of_pairs(x):               # dict(zip(...)) with a repeated key (dict_pairs_vjp)
    d = dict([("a", x * x), ("b", np.sin(x)), ("a", np.exp(x))])
    return np.sum(d["a"] * d["b"] ** 2)


def rearranged(x):                  # zip(*rows), reversed(xs), `a, b = pairs[0]`
    pairs = [(x[0] * x[1], np.sin(x[2])), (x[1] ** 2, x[0] * x[2])]
    firsts, seconds = zip(*pairs)
    a, b = pairs[0]
    back = list(reversed([firsts[0], seconds[1], a * b]))
    return back[0] * firsts[1] + seconds[0] ** 2 + back[2] * b


CASES = [
    (carried, lambda r: (r.normal(size=3),), 0),
    (grown_list, lambda r: (r.normal(size=3),), 0),
    (zipped, lambda r: (r.normal(size=3), r.normal(size=3)), (0, 1)),
    (enumerate_zipped, lambda r: (r.normal(size=3), r.normal(size=3)), (0, 1)),
    (rows_then_x, lambda r: (r.normal(size=3), r.normal(size=3)), 0),
    (nested_indices, lambda r: (r.normal(size=(3, 3)),), 0),
    (builtins_over_lists, lambda r: (r.normal(size=3),), 0),
    (arrays_of_lists, lambda r: (r.normal(size=3),), 0),
    (linear_algebra, lambda r: (0.5 * r.normal(size=(3, 3)), r.normal(size=3)), (0, 1)),
    (fields, lambda r: (r.normal(size=3),), 0),
    (dict_union, lambda r: (r.normal(size=3),), 0),
    (dict_of_pairs, lambda r: (r.normal(size=3),), 0),
    (rearranged, lambda r: (r.normal(size=3),), 0),
]


@pytest.mark.parametrize("case", range(len(CASES)), ids=lambda k: CASES[k][0].__name__)
def test_forward_over_reverse_through_backward_loops_and_helpers(case):
    fn, make, wrt = CASES[case]
    r = rng(36, fn.__name__)
    args = make(r)
    positions = wrt if isinstance(wrt, tuple) else (wrt,)
    vs = tuple(r.normal(size=np.shape(args[k])) for k in positions)
    got = hvp(fn, args, vs, wrt=wrt, route="forward_over_reverse")
    got = got if isinstance(wrt, tuple) else (got,)
    other = hvp(fn, args, vs, wrt=wrt, route="reverse_over_forward")
    other = other if isinstance(wrt, tuple) else (other,)
    for k, g, o in zip(positions, got, other):
        expected = _moved_together(fn, args, positions, vs, k)
        assert_close(g, expected, rtol=1e-5, atol=1e-6)
        assert_close(g, o, rtol=1e-8, atol=1e-9)


def _moved_together(fn, args, positions, vs, k):
    """Differences of grad's entry k with every differentiated argument stepped along
    its direction at once (sum_j H_kj v_j)."""
    def gradient_at(t):
        moved = list(args)
        for p, v in zip(positions, vs):
            moved[p] = args[p] + t * v
        return grad(fn, k)(*moved)
    return numerical_jvp(lambda t: gradient_at(t), [0.0], 0, 1.0)
