"""The online checkpointing schedule: for loops whose trip count is not known when they
start (`while`, a `for` with `break`).

Forward sweep: the carry before step i is stored when i is a multiple of the stride d
(1 at first); storing a (s + 1)-th snapshot doubles d instead, dropping the snapshots
at odd multiples of the old stride. After n steps the held positions are the multiples
of d below n, d the least power of two with ceil(n / d) <= s (`stride`): at most s
carries, the loop's input one of them.

Backward sweep, n now known: keep the subset q_0 = 0 < q_1 < ... of the held positions
minimising sum_j advances(q_(j+1) - q_j, s - 1 - j) (segment j reversed by the binomial
schedule from q_j with the s - 1 - j slots the earlier kept snapshots leave;
runtime/revolve.py), a small dynamic programme (`plan`). The offline schedule
(revolve.sweep_chain) is the same minimum over all positions, so

    offline(n, s) <= online(n, s) <= advances(n, s - 1) <= offline(n, s) + n

the middle term (keeping q_0 only: revolve from the loop's input) is at most
r * n - C(s + r, s + 1), r the binomial repetition number of n steps and s snapshots;
the last inequality by induction on the free slots (docs/checkpointing.md). At most one
primal run more than the schedule that knew n in advance; measured 1-16% more for
n >> s (tests/checkpoint/test_online_schedule.py checks the DP by brute force).

Written here, not taken from a library: Stumm & Walther's optimal online schedules
are optimal for a bounded n only (C(s + 3, s), as far as we know), Wang, Moin & Iaccarino's dynamic checkpointing
bounds the repetitions but not the total; neither is packaged in Python, and this one's
exact cost is what checkpoint_stats measures.
"""
import numpy as np

from . import revolve


def stride(n, s):
    """The forward sweep's stride after n steps with s snapshots."""
    d = 1
    while -(-n // d) > s:
        d *= 2
    return d


def held(n, s):
    """The positions the forward sweep holds after n steps (0 among them)."""
    return list(range(0, max(n, 1), stride(n, s)))


class Thinned:
    """The forward sweep's snapshots: add(i, carry) before step i."""

    def __init__(self, s):
        self.s, self.d, self.held = s, 1, []

    def add(self, i, carry):
        """Store carry at position i if the schedule holds it; the positions dropped."""
        if i % self.d:
            return []
        dropped = []
        if len(self.held) == self.s:
            self.d *= 2
            dropped = [p for p, _ in self.held if p % self.d]
            self.held = [(p, c) for p, c in self.held if not p % self.d]
            if i % self.d:
                return dropped
        self.held.append((i, carry))
        return dropped


def plan(n, s):
    """The backward sweep's segments [(start, length, free slots)] after n steps."""
    if n == 0:
        return []
    P = held(n, s)
    while len(P) > CANDIDATES:          # (an O(m^3) programme: every other one)
        P = P[::2]
    m, big = len(P), np.iinfo(np.int64).max // 4
    J = min(s, m)                                      # kept snapshots: at most m
    free = [s - 1 - j for j in range(J)]               # free slots of the j-th kept
    step = P[1] if m > 1 else n
    table = _table([k * step for k in range(m)], free)          # k strides
    tail = _table([n - p for p in reversed(P)], free)[::-1]     # P[i] to the end
    cost, nxt = np.full((m, J), big, dtype=np.int64), np.full((m, J), -1)
    for i in reversed(range(m)):
        cost[i] = tail[i]                              # P[i] the last kept
        if i + 1 < m and J > 1:
            cand = table[1:m - i, :-1] + cost[i + 1:, 1:]       # next kept: i + 1 + k
            k = np.argmin(cand, axis=0)
            best = cand[k, np.arange(J - 1)]
            better = best < cost[i, :-1]
            cost[i, :-1] = np.where(better, best, cost[i, :-1])
            nxt[i, :-1] = np.where(better, i + 1 + k, -1)
    return _segments(P, nxt, n, s)


CANDIDATES = 256    # (s > 256: the held positions thinned to <= 256 candidates)


def _table(lengths, free):
    """advances(l, f) for l in lengths (nondecreasing) x f in free, as int64."""
    return np.array([_column(lengths, f) for f in free], dtype=np.int64).T.reshape(
        len(lengths), len(free))


def _column(lengths, free):
    """revolve.advances(l, free) for each l (nondecreasing): r found incrementally."""
    if free == 0:
        return [l * (l - 1) // 2 for l in lengths]
    s, r, out = free + 1, 0, []
    for l in lengths:
        while revolve.beta(s, r) < l:
            r += 1
        out.append(r * l - revolve.beta(s + 1, r - 1))
    return out


def _segments(P, nxt, n, s):
    out, i, j = [], 0, 0
    while i != -1:
        k = int(nxt[i, j])
        out.append((P[i], (P[k] if k != -1 else n) - P[i], s - 1 - j))
        i, j = k, j + 1
    return out


def recomputations(n, s):
    """Primal step evaluations the backward sweep makes for n steps (theory)."""
    return sum(revolve.advances(length, free) for _, length, free in plan(n, s))
