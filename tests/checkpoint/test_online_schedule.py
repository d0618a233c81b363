"""The online schedule (runtime/online.py): the forward sweep's thinning against its
closed form, the backward sweep's choice against a brute-force search over every subset
of the held snapshots, its bound against the offline schedule's brute-force optimum
(tests/checkpoint/test_schedule.py), and the counts a gradient measures against it."""
import itertools

import numpy as np
import pytest

from runtime import online, revolve
from tests.checkpoint import online_cases as C
from tests.checkpoint.test_schedule import best, best_after_sweep
from transform import checkpoint_stats, grad


def brute(n, s):
    """Fewest recomputations over every subset of the held positions (0 kept first)."""
    if n == 0:
        return 0
    positions, costs = online.held(n, s), []
    for r in range(min(s, len(positions))):
        for rest in itertools.combinations(positions[1:], r):
            kept = [0, *rest, n]
            costs.append(sum(revolve.advances(kept[j + 1] - kept[j], s - 1 - j)
                             for j in range(len(kept) - 1)))
    return min(costs)


@pytest.mark.parametrize("s", range(1, 8))
def test_thinning_holds_the_stride_multiples(s):
    snaps = online.Thinned(s)
    for n in range(1, 200):
        snaps.add(n - 1, n - 1)
        positions = [p for p, _ in snaps.held]
        assert positions == online.held(n, s) and len(positions) <= s
        assert all(c == p for p, c in snaps.held)      # each holds its own state
        d = online.stride(n, s)
        assert -(-n // d) <= s and (d == 1 or -(-n // (d // 2)) > s)


@pytest.mark.parametrize("s", range(1, 8))
def test_plan_is_the_best_subset_and_within_the_bound(s):
    for n in range(0, 90):
        got = online.recomputations(n, s)
        assert got == brute(n, s), (n, s)
        offline = best_after_sweep(n, s - 1) if n else 0
        assert offline <= got <= best(n, s - 1) <= offline + n, (n, s)
        segments = online.plan(n, s)
        assert sum(length for _, length, _ in segments) == n
        assert all(start in online.held(n, s) for start, _, _ in segments)
        assert [free for *_, free in segments] == list(range(s - 1, s - 1 - len(segments), -1))


def test_bound_at_larger_sizes():
    """offline <= online <= revolve from the input <= offline + n, and close to offline
    when n >> s (2-15% here)."""
    for n, s in [(10**4, 2), (10**4, 10), (10**5, 30), (10**6, 10), (10**6, 100)]:
        off, got = revolve.recomputations(n, s), online.recomputations(n, s)
        assert off <= got <= revolve.advances(n, s - 1) <= off + n
        assert got <= 1.16 * off


def test_many_snapshots_thin_the_candidates():
    """Beyond online.CANDIDATES held positions the programme looks at every other one:
    still within the bound, and quick."""
    n, s = 10**6, 1000
    got = online.recomputations(n, s)
    assert revolve.recomputations(n, s) <= got <= revolve.advances(n, s - 1)


@pytest.mark.parametrize("n, s", [(0, 2), (1, 1), (2, 1), (10, 1), (10, 2), (10, 3),
                                  (30, 3), (55, 4), (12, 12), (12, 20)])
def test_measured_counts_are_the_theory(n, s):
    with checkpoint_stats() as stats:
        grad(C.counted_ck, 0)(0.3, 0.9, n, s)
    assert stats.loops == 1 and stats.steps == stats.advances == stats.reversed == n
    assert stats.recomputed == online.recomputations(n, s) == brute(n, s)
    assert stats.peak_snapshots == min(s, max(n, 1))


def test_checkpointing_pays_off_against_keeping_only_the_input():
    """The thinned snapshots save recomputation against revolve from the input."""
    saved = [revolve.advances(n, s - 1) - online.recomputations(n, s)
             for n, s in [(100, 3), (1000, 5), (1000, 10)]]
    assert all(np.array(saved) > 0), saved
