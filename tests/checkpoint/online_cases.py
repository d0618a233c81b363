"""Checkpointed loops that jump or are `while` loops, and the same loops unmarked: pairs
(NAME_ck, NAME), the snapshot count the last argument of the checkpointed one; each NAME
is NAME_ck without its markers (tests/checkpoint/unmarked.py), made at the end."""
import numpy as np

from tests.checkpoint.cases import _helper, _lap  # noqa: F401  (the cases call them)
from tests.checkpoint.unmarked import unmarked_twins
from transform import checkpointed, checkpointed_while


def newton_ck(x, a, s):
    """sqrt(a) by Newton steps until converged: the trip count depends on the data."""
    while checkpointed_while(abs(x * x - a) > 1e-10, snapshots=s):
        x = 0.5 * (x + a / x)
    return x


def counted_ck(x, w, n, s):
    k, total = 0, 0.0
    while checkpointed_while(k < n, snapshots=s):
        x = np.tanh(w * x) + 0.1 * k
        total = total + x * x
        k = k + 1
    return total + x


def jumps_ck(x, w, n, s):
    """A while loop with continue and break; the condition reads a body's value."""
    k, e = 0, 1.0
    while checkpointed_while(k < n and e > 0.01, snapshots=s):
        k = k + 1
        x = np.cos(w * x) + 0.05 * k
        if k % 3 == 0:
            continue
        e = e * 0.8
        if x > 1.5:
            break
        x = x * w
    return x + e


def for_break_ck(x, w, n, s):
    for t in checkpointed(range(n), snapshots=s):
        x = np.tanh(w * x) + 0.1 * t
        if x > 0.9:
            break
        if t % 2:
            continue
        x = x * 1.01
    return x


def rows_break_ck(xs, w, s):
    h = np.zeros(3)
    for x in checkpointed(xs, snapshots=s):
        h = np.tanh(w @ h + x)
        if np.sum(h) > 1.0:
            break
    return np.sum(h * h)


def items_continue_ck(xs, w, s):
    acc = 1.0
    for x in checkpointed(xs, snapshots=s):
        if x < 0:
            continue
        acc = acc * w + np.sin(x)
    return acc


def nested_ck(x, w, n, s):
    """Outer while checkpointed; inner plain loop with its own break, inner marked for
    with a break."""
    k = 0
    while checkpointed_while(k < n, snapshots=s):
        for j in range(4):
            x = np.cos(w * x) + 0.1 * j
            if j == 2:
                break
        for i in checkpointed(range(3), snapshots=2):
            x = x * 1.05 + 0.01 * i
            if i == k % 3:
                break
        k = k + 1
    return x


def while_inside_ck(x, w, n, s):
    """A marked for loop (binomial) whose body runs a marked while loop."""
    for t in checkpointed(range(n), snapshots=s):
        k = 0
        while checkpointed_while(k < t % 3 + 1, snapshots=2):
            x = np.sin(w * x) + 0.3
            k = k + 1
    return x


def calls_ck(x, w, n, s):
    k = 0
    while checkpointed_while(k < n, snapshots=s):
        x = _helper(x, w) + 0.5
        if x > 3.0:
            break
        k = k + 1
    return x


def else_break_ck(x, n, s):
    """A break in an inner loop's `else` leaves the outer (marked) loop."""
    for t in checkpointed(range(n), snapshots=s):
        for j in range(2):
            x = x * 1.1
            if x > 5.0:
                break
        else:
            x = x + 0.5
            if x > 2.0:
                break
    return x


def heat_ck(u, kappa, target, s):
    """Diffuse until the energy falls below target (unknown trip count)."""
    while checkpointed_while(np.sum(u * u) > target, snapshots=s):
        u = u + 0.1 * kappa * _lap(u)
    return np.sum(u ** 3)


def heat_steps_ck(u, kappa, n, s):
    k = 0
    while checkpointed_while(k < n, snapshots=s):
        u = u + 0.1 * kappa * _lap(u)
        k = k + 1
    return np.sum(u ** 2)


def in_plain_loop_ck(x, w, m, s):
    """A marked while inside a plain for loop, a `with` block around its break."""
    for j in range(m):
        k = 0
        while checkpointed_while(k < j + 2, snapshots=s):
            k = k + 1
            with np.errstate(over="ignore"):
                x = np.sin(w * x) + 0.2
                if x > 0.99:
                    break
    return x


unmarked_twins(globals())
