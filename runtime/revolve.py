"""The binomial ("revolve") checkpointing schedule, as arithmetic (Griewank 1992).

With `s` stored states (snapshots) of a loop's carry and at most `r` recomputations of
any step, beta(s, r) = C(s + r, s) steps can be reversed. Reversing `l` steps from a
held state with `free` further snapshot slots costs, in primal step evaluations,

    advances(l, free) = r * l - beta(s + 1, r - 1),  s = free + 1, r minimal with
                                                      beta(s, r) >= l

the minimum over all schedules (tests/checkpoint/test_schedule.py checks both splits
against a brute-force search). `split` gives the first snapshot's distance for that
minimum; `sweep_split` the one when the forward sweep (run anyway, for the loop's
output) places the snapshots, so its advances are free. Written here rather than taken
from a library: the two splits are a few lines each, and the driver needs the counts.
"""
from math import comb


def beta(s, r):
    """How many steps s snapshots reverse with at most r recomputations per step."""
    return comb(s + r, s) if r >= 0 else 0


def repetitions(l, s):
    """The least r with beta(s, r) >= l."""
    return next(r for r in range(l + 1) if beta(s, r) >= l)    # beta(s, l) >= l


def advances(l, free):
    """Primal step evaluations reversing l steps from a held state, `free` slots
    (0 for l <= 1: r is then 0, and beta(s + 1, -1) is 0)."""
    if free == 0:
        return l * (l - 1) // 2
    s = free + 1
    r = repetitions(l, s)
    return r * l - beta(s + 1, r - 1)


def split(l, free):
    """Where to store the next snapshot (distance from the held state) reversing l > 1
    steps with free > 0 slots: the left part is then reversed with the same slots."""
    s = free + 1
    r = repetitions(l, s)
    return max(1, beta(s, r - 2), l - beta(s - 1, r))     # < l: beta(s, r - 1) < l


def sweep_split(l, free):
    """The same when the advance to the snapshot is the forward sweep's (free)."""
    s = free + 1
    r = repetitions(l, s)
    return max(1, min(beta(s, r - 1), l - beta(s - 1, r - 1)))    # < l likewise


def sweep_chain(n, snapshots):
    """The forward sweep's segments [(start, length, free slots)], left to right."""
    segments, start, free = [], 0, snapshots - 1
    while free > 0 and n - start > 1:
        m = sweep_split(n - start, free)
        segments.append((start, m, free))
        start, free = start + m, free - 1
    if n > start:
        segments.append((start, n - start, free))
    return segments


def recomputations(n, snapshots):
    """Primal step evaluations the backward sweep makes for n steps (theory)."""
    return sum(advances(length, free) for _, length, free in sweep_chain(n, snapshots))
