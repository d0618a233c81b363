"""The loop pass materialises inside loops, measured, not read from the text: under
"loop" (and "eager") a loop's contributions are added as they come, so neither the
thunks made nor the peak memory of the backward sweep grows with the trip count; under
"flat" (which never materialises) both do, which shows the measurements can tell.
("nested" makes as many thunks as "flat", but each captures only the scalar cotangent
and the shared `c`, so its memory stays small.)"""
import tracemalloc

import numpy as np
import pytest

from tests.fd import assert_close
from transform import grad, thunk_stats

from . import seeds

SIZE = 20_000                       # 160 kB a contribution


def measure(policy, n, fn=seeds.weighted_bias):
    """(thunks created, peak bytes allocated) for the gradient of an n-step loop."""
    b, c = np.ones(SIZE), np.linspace(0.0, 1.0, SIZE)
    df = grad(fn, wrt="b", policy=policy)
    df(b, c, 1)                               # compile outside the measurement
    tracemalloc.start()
    try:
        with thunk_stats() as stats:
            db = df(b, c, n)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert_close(db, n * c)
    return stats.created, peak


@pytest.mark.parametrize("policy", ["loop", "eager"])
def test_materialising_policies_stay_flat_in_thunks_and_memory(policy):
    few, many = measure(policy, 4), measure(policy, 64)
    assert many[0] == few[0], (few, many)
    assert many[1] < 2 * few[1] + 8 * SIZE * 2, (few, many)


@pytest.mark.parametrize("policy", ["loop", "eager"])
def test_a_rules_thunks_are_forced_in_the_loop_that_makes_them(policy):
    """A rule whose pullback hands over a Thunk holding an array: materialised in the
    loop, each is added into one buffer and dropped, so memory stays flat; deferred (as
    "flat" does), every one is kept until the end."""
    few, many = measure(policy, 4, seeds.held_loop), measure(policy, 64, seeds.held_loop)
    assert many[1] < 2 * few[1] + 8 * SIZE * 2, (few, many)
    few, many = measure("flat", 4, seeds.held_loop), measure("flat", 64, seeds.held_loop)
    assert many[1] > few[1] + 40 * 8 * SIZE, (few, many)


@pytest.mark.parametrize("policy", ["flat", "nested"])
def test_deferring_policies_make_a_thunk_a_step(policy):
    few, many = measure(policy, 4), measure(policy, 64)
    assert many[0] >= few[0] + 60, (few, many)


def test_a_flat_pending_sum_holds_every_contribution():
    few, many = measure("flat", 4), measure("flat", 64)
    assert many[1] > few[1] + 40 * 8 * SIZE, (few, many)
