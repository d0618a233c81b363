"""The binomial schedule: runtime/revolve.py's closed forms against a brute-force search
over every schedule, and the counts a checkpointed gradient measures against them."""
from functools import lru_cache

import numpy as np
import pytest

from runtime import revolve
from tests.checkpoint import cases
from transform import checkpoint_stats, grad


@lru_cache(None)
def best(length, free):
    """Fewest step evaluations reversing `length` steps from a held state with `free`
    snapshot slots, over every choice of where to store the next snapshot."""
    if length <= 1:
        return 0
    if free == 0:
        return length * (length - 1) // 2
    return min(m + best(length - m, free - 1) + best(m, free) for m in range(1, length))


@lru_cache(None)
def best_after_sweep(length, free):
    """The same when the snapshots are stored by the forward sweep (its advances free)."""
    if length <= 1 or free == 0:
        return best(length, free)
    return min(best_after_sweep(length - m, free - 1) + best(m, free)
               for m in range(1, length))


def cost(length, free):
    """What the schedule's own splits cost, following them."""
    if length <= 1 or free == 0:
        return best(length, free)
    m = revolve.split(length, free)
    return m + cost(length - m, free - 1) + cost(m, free)


@pytest.mark.parametrize("free", range(0, 6))
def test_closed_form_and_split_are_optimal(free):
    assert revolve.advances(0, free) == 0
    for length in range(1, 70):
        assert revolve.advances(length, free) == best(length, free), (length, free)
        assert type(revolve.advances(length, free)) is int
        if length > 1 and free > 0:
            assert 1 <= revolve.split(length, free) < length
            assert 1 <= revolve.sweep_split(length, free) < length
        assert cost(length, free) == best(length, free), (length, free)


@pytest.mark.parametrize("snapshots", range(1, 7))
def test_sweep_schedule_is_optimal(snapshots):
    for n in range(0, 70):
        assert revolve.recomputations(n, snapshots) == best_after_sweep(n, snapshots - 1)
        chain = revolve.sweep_chain(n, snapshots)
        assert sum(length for _, length, _ in chain) == n and len(chain) <= snapshots


def test_binomial_reach():
    """beta(s, r) steps need at most r repetitions; one more step needs r + 1."""
    for s in range(1, 6):
        for r in range(0, 5):
            n = revolve.beta(s, r)
            assert revolve.repetitions(n, s) == r and revolve.repetitions(n + 1, s) == r + 1


@pytest.mark.parametrize("n, s", [(1, 1), (2, 1), (10, 1), (10, 2), (10, 3), (30, 3),
                                  (30, 5), (55, 4), (12, 12), (12, 20)])
def test_measured_counts_are_the_theory(n, s):
    u = np.linspace(0.0, 1.0, 6)
    with checkpoint_stats() as stats:
        grad(cases.heat_ck, 0)(u, np.ones(6), 0.1, n, s)
    assert stats.loops == 1 and stats.steps == n and stats.reversed == n
    assert stats.recomputed == revolve.recomputations(n, s) == best_after_sweep(n, s - 1)
    assert stats.advances == n
    assert stats.peak_snapshots == min(s, max(1, n))


def test_more_snapshots_fewer_recomputations():
    counts = [revolve.recomputations(200, s) for s in range(1, 12)]
    assert counts == sorted(counts, reverse=True) and counts[0] == 200 * 199 // 2
    assert revolve.recomputations(200, 200) == 0


def test_stats_block_lets_errors_through_and_nests():
    with pytest.raises(ZeroDivisionError):
        with checkpoint_stats():
            1 / 0
    u = np.linspace(0.0, 1.0, 6)
    with checkpoint_stats() as outer:
        with checkpoint_stats() as inner:
            grad(cases.heat_ck, 0)(u, np.ones(6), 0.1, 4, 2)
        grad(cases.heat_ck, 0)(u, np.ones(6), 0.1, 3, 2)
    assert (inner.loops, inner.steps, outer.loops, outer.steps) == (1, 4, 2, 7)
    assert "steps=4" in repr(inner)
