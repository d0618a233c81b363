"""Checkpointed loops and the same loops without the marker: pairs (NAME_ck, NAME), the
snapshot count the last argument of the checkpointed one; each NAME is NAME_ck without
its markers (tests/checkpoint/unmarked.py), made at the end."""
import numpy as np

from tests.checkpoint.unmarked import unmarked_twins
from transform import checkpointed


def _helper(u, k):
    if k > 0.5:
        return np.sin(u) * k
    return u * k


def _lap(u):
    return np.roll(u, 1) - 2 * u + np.roll(u, -1)


def scalar_ck(x, w, n, s):
    total = 0
    for t in checkpointed(range(n), snapshots=s):
        x = np.tanh(w * x) + 0.1 * t
        total = total + x * x
    return total + x


def heat_ck(u, kappa, dt, n, s):
    for t in checkpointed(range(n), snapshots=s):
        u = u + dt * kappa * _lap(u)
    return np.sum(u ** 2)


def rows_ck(xs, w, s):
    h = np.zeros(3)
    for x in checkpointed(xs, snapshots=s):
        h = np.tanh(w @ h + x)
    return np.sum(h * h)


def items_ck(xs, w, s):
    acc = 1.0
    for x in checkpointed(xs, snapshots=s):
        acc = acc * w + np.sin(x)
    return acc


def nested_ck(x, w, n, s):
    for t in checkpointed(range(n), snapshots=s):
        for k in range(3):
            x = np.cos(w * x) + 0.1 * k
    return x


def calls_ck(x, w, n, s):
    for t in checkpointed(range(n), snapshots=s):
        x = _helper(x, w) + 0.5
    return x


def in_place_ck(u, c, n, s):
    u = u.copy()
    last = 0.0
    for t in checkpointed(range(n), snapshots=s):
        u[1:] = u[1:] * c + np.sin(u[:-1])
        last = u[0] * t
    return np.sum(u) + last


def inner_marked_ck(x, n, s):
    for t in checkpointed(range(n), snapshots=s):
        for k in checkpointed(range(3), snapshots=2):
            x = np.sin(x) * 1.1 + 0.1
    return x


def inside_plain_ck(x, n, s):
    for k in range(3):
        for t in checkpointed(range(n), snapshots=s):
            x = np.sin(x) * 1.2 + 0.1 * k
        x = x * 0.9
    return x


def scopes_ck(x, ws, n, s):
    for t in checkpointed(range(n), snapshots=s):
        x = sum([np.sin(w * x) for w in ws]) + 0.1
        f = lambda v: v * x                                     # noqa: E731
        x = f(0.9)
    return x


class Params:
    def __init__(self, w):
        self.w = w


def record_ck(x, p, n, s):
    for t in checkpointed(range(n), snapshots=s):
        x = np.sin(x * p.w) + 0.1
    return x


def unused_carry_ck(x, n, s):
    acc = 0.0
    for t in checkpointed(range(n), snapshots=s):
        acc = acc + x
        x = x * 1.1 + 0.01 * acc
    return x


def plus_ck(u, w, n, s):
    for t in checkpointed(range(n), snapshots=s):
        u = u + w
    return np.sum(u * u)


def closure_ck(x, w, n, s):
    f = lambda v: np.sin(v * w)                                 # noqa: E731
    for t in checkpointed(range(n), snapshots=s):
        x = f(x) + 0.1
    return x


unmarked_twins(globals())
