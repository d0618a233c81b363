"""Memory of a checkpointed while loop: the gradient keeps O(snapshots) states where the
taped loop keeps one per step (tracemalloc peaks at a moderate size; a behaviour with a
generous factor, not a timing)."""
import tracemalloc

import numpy as np

from tests.checkpoint import online_cases as C
from transform import grad


def _peak(f, *args):
    grad(f, 0)(*args[:2], 3, *args[3:])          # compiled outside the measurement
    tracemalloc.start()
    try:
        grad(f, 0)(*args)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_while_loop_peak_memory_far_below_the_tape():
    u, kappa = np.linspace(0.0, 1.0, 2000), np.ones(2000)
    taped = _peak(C.heat_steps, u, kappa, 150)
    checkpointed = _peak(C.heat_steps_ck, u, kappa, 150, 4)
    assert taped > 40 * u.nbytes                 # the tape holds a state per step
    assert checkpointed < taped / 5 and checkpointed < 40 * u.nbytes


def test_peak_does_not_grow_with_the_trip_count():
    u, kappa = np.linspace(0.0, 1.0, 2000), np.ones(2000)
    short = _peak(C.heat_steps_ck, u, kappa, 40, 4)
    long = _peak(C.heat_steps_ck, u, kappa, 160, 4)
    assert long < 1.5 * short + 20 * u.nbytes
