"""A name overwritten in one top-level loop and read by value only after it is not
saved at each overwrite (transform/analysis/unchanging.py, read_after_loop): the
backward sweep reads it before it replays the loop, when it holds its last value.
Each program below is a way that could go wrong (a read before or inside the loop, a
second loop, a nested loop, a shape that changes, a swap, a pullback run twice); each
runs against finite differences under every policy.
"""
import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_function, rng
from transform import vjp
from transform.api import _wrt_names, compiled, signature_of


def specialised(fn, wrt, args):
    names, _ = _wrt_names(fn, wrt)
    return compiled(fn, names, "loop", signature=signature_of(args)).source


def after_only(u, k, n):
    for _ in range(n):
        u = np.concatenate([u[:1], u[1:] * k + u[:-1] * (1 - k)])
    return np.sum(u ** 2)


def read_before(x, n):
    y = np.sin(x) * x                 # x read by value before the loop: its first value
    for _ in range(n):
        x = 0.5 * x + 1.0             # linear: its adjoint reads no x
    return np.sum(x ** 2) + np.sum(y)


def read_inside(x, n):
    s = 0.0
    for _ in range(n):
        s = s + np.sum(x ** 3)        # x read by value inside the loop
        x = np.tanh(x) * 1.5
    return s + np.sum(x ** 2)


def two_loops(x, n):
    for _ in range(n):
        x = np.sin(x) + x
    for _ in range(n):
        x = x * np.cos(x)
    return np.sum(x ** 2)


def nested(x, n):
    for _ in range(n):
        for _ in range(2):
            x = np.sin(x) * 1.2 + 0.1
    return np.sum(x ** 3)


def in_a_while(x, n):
    k = 0
    while k < n:
        x = np.sqrt(x * x + 1.0) * 0.8
        k += 1
    return np.sum(x * np.exp(-x))


def swapped(u, k, n):
    u = u.copy()
    un = np.zeros_like(u)
    for _ in range(n):
        un[1:-1] = u[1:-1] + k * (u[2:] - 2 * u[1:-1] + u[:-2])
        un[0], un[-1] = u[0], u[-1]
        u, un = un, u
    return np.sum(u ** 2) + np.sum(un)


def grows(x, y, n):
    for _ in range(n):
        x = np.concatenate([x, y * np.sum(x)])
    return np.sum(x ** 2)


_X = rng("after_loop").uniform(0.2, 1.0, size=5)
CASES = [
    (after_only, (_X, 0.3, 4), (0, 1)),
    (read_before, (_X, 3), (0,)),
    (read_inside, (_X, 3), (0,)),
    (two_loops, (_X, 3), (0,)),
    (nested, (_X, 3), (0,)),
    (in_a_while, (_X, 3), (0,)),
    (swapped, (_X, 0.2, 3), (0, 1)),
    (grows, (_X[:2], _X[2:4], 3), (0, 1)),
]


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn,args,wrt", CASES, ids=[c[0].__name__ for c in CASES])
def test_against_finite_differences(fn, args, wrt, policy):
    check_function(fn, list(args), wrt if len(wrt) > 1 else wrt[0], policy)


def test_the_carried_array_is_not_saved():
    text = specialised(after_only, ("u", "k"), CASES[0][1])
    assert "tape.append(u)" not in text and "u = pop()" not in text


@pytest.mark.parametrize("fn,args", [(read_before, CASES[1][1]), (read_inside, CASES[2][1]),
                                     (two_loops, CASES[3][1])])
def test_reads_before_or_inside_keep_the_saves(fn, args):
    assert "tape.append(x)" in specialised(fn, "x", args)


@pytest.mark.parametrize("policy", POLICIES)
def test_a_pullback_runs_twice_alike(policy):
    _, pullback = vjp(after_only, _X, 0.3, 4, wrt=(0, 1), policy=policy)
    first, second = pullback(1.0), pullback(1.0)
    for a, b in zip(first, second):
        np.testing.assert_array_equal(a, b)
