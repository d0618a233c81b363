"""Memory: the checkpointed gradient of a heat-equation loop (a `for` loop, and a `while`
loop whose trip count shows only when it runs) keeps a few states where the taped one
keeps every step's (tracemalloc peaks; a behaviour, with a generous factor, not a
timing)."""
import tracemalloc

import numpy as np
import pytest

from tests.checkpoint import cases, online_cases
from transform import grad

# loop: (plain, checkpointed, arguments for (u, kappa, steps))
LOOPS = {"for": (cases.heat, cases.heat_ck, lambda u, kappa, n: (u, kappa, 0.1, n)),
         "while": (online_cases.heat_steps, online_cases.heat_steps_ck,
                   lambda u, kappa, n: (u, kappa, n))}
U, KAPPA = np.linspace(0.0, 1.0, 2000), np.ones(2000)


def _peak(f, arguments, steps, *snapshots):
    grad(f, 0)(*arguments(U, KAPPA, 3), *snapshots)      # compiled outside the measurement
    tracemalloc.start()
    try:
        grad(f, 0)(*arguments(U, KAPPA, steps), *snapshots)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("loop", LOOPS)
def test_peak_memory_far_below_the_tape(loop):
    plain, marked, arguments = LOOPS[loop]
    taped = _peak(plain, arguments, 150)
    checkpointed = _peak(marked, arguments, 150, 4)
    assert taped > 40 * U.nbytes                 # the tape holds a state per step
    assert checkpointed < taped / 5 and checkpointed < 40 * U.nbytes


@pytest.mark.parametrize("loop", LOOPS)
def test_peak_does_not_grow_with_the_loop_length(loop):
    _, marked, arguments = LOOPS[loop]
    short = _peak(marked, arguments, 40, 4)
    long = _peak(marked, arguments, 160, 4)
    assert long < 1.5 * short + 20 * U.nbytes
