"""Memory: the checkpointed gradient of a heat-equation loop keeps a few states where
the taped one keeps every step's (tracemalloc peaks; a behaviour, with a generous
factor, not a timing)."""
import tracemalloc

import numpy as np

from tests.checkpoint import cases
from transform import grad


def _peak(f, *args):
    grad(f, 0)(*args[:3], 3, *args[4:])          # compiled outside the measurement
    tracemalloc.start()
    try:
        grad(f, 0)(*args)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_heat_loop_peak_memory_far_below_the_tape():
    cells, steps = 2000, 150
    u, kappa = np.linspace(0.0, 1.0, cells), np.ones(cells)
    taped = _peak(cases.heat, u, kappa, 0.1, steps)
    checkpointed = _peak(cases.heat_ck, u, kappa, 0.1, steps, 4)
    state = u.nbytes
    assert taped > 40 * state                    # the tape holds a state per step
    assert checkpointed < taped / 5 and checkpointed < 40 * state


def test_peak_does_not_grow_with_the_loop_length():
    u, kappa = np.linspace(0.0, 1.0, 2000), np.ones(2000)
    short = _peak(cases.heat_ck, u, kappa, 0.1, 40, 4)
    long = _peak(cases.heat_ck, u, kappa, 0.1, 160, 4)
    assert long < 1.5 * short + 20 * u.nbytes
