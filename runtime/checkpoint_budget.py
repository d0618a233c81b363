"""memory_limit's loops: the driver measures one step's tape and either tapes the loop
(all its steps' pullbacks fit in the limit) or picks the snapshot count that fits.

A loop of n steps whose one-step tape is e bytes (tracemalloc's difference around the
step rule's call: arrays and Python objects it keeps) and whose carry is c bytes: taped
when n * e <= limit, else checkpointed with s = (limit - 2e - 2c) // 3c snapshots (the
sweeps hold s carries, one step's tape and the cotangents' working copies; a held
snapshot measured ~2c under tracemalloc on the heat loop (not explained yet), hence 3c), and a
MemoryError when not even one snapshot fits.

chunk="auto" (`auto_chunk`): the driver runs the first CHUNK_PROBE iterations as one
chunk under tracemalloc (twice: the first call compiles) and takes k = the largest
chunk whose tape, at that measured rate per iteration, stays under max(s carries,
CHUNK_FLOOR): the chunk's tape then at most doubles the snapshots' memory, and below
64 KiB a tape is noise next to the interpreter's own allocations while a chunk of cheap
iterations (a scalar loop: ~100 bytes each) pays the step rule's call once per k."""
import random
import tracemalloc

import numpy as np

from .checkpoint import Chunks

CHUNK_FLOOR = 64 * 1024
CHUNK_PROBE = 32


def nbytes(value):
    """The bytes a carry holds: its arrays' (their data and object) and numbers'."""
    if isinstance(value, (list, tuple)):
        return sum(nbytes(v) for v in value)
    if isinstance(value, dict):
        return sum(nbytes(v) for v in value.values())
    return value.nbytes + 112 if isinstance(value, np.ndarray) else 32


def measured_call(loop, carry):
    """(step 0's output, pullback, the bytes the call kept) of loop at carry; its rule
    compiled and called once before measuring (the compiler's memory and the first
    call's caches are no tape)."""
    loop.call(carry, 0)
    started = not tracemalloc.is_tracing()
    if started:
        tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        out, pullback = loop.call(carry, 0)
        kept = tracemalloc.get_traced_memory()[0] - before
    finally:
        if started:
            tracemalloc.stop()
    return out, pullback, max(kept, 1)


def snapshots_for(limit, steps, tape, carry, where=""):
    """None (tape the loop) or the snapshot count keeping the loop under `limit`."""
    if steps * tape <= limit:
        return None
    s = (limit - 2 * tape - 2 * carry) // (3 * max(carry, 1))
    if s < 1:
        raise MemoryError(f"{where}: memory_limit={limit} bytes is too small for this "
                          f"loop: one step's tape is {tape} bytes and its state {carry} "
                          "bytes; raise the limit")
    return min(s, steps)


def taped(loop, carry, first):
    """Run the loop keeping every step's pullback (they fit): (output, backward)."""
    out, pullback = first
    pullbacks = [pullback]
    for i in range(1, len(loop.items)):
        out, pullback = loop.call(out, i)
        pullbacks.append(pullback)

    def backward(g):
        for i in reversed(range(len(pullbacks))):
            g = loop.pulled(pullbacks[i], len(carry), i, g)
        return g
    return out, backward


def auto_chunk(loop_type, step, carry, invariants, items, snapshots):
    """(k for chunk="auto", the measured tape bytes per iteration) (module docstring)."""
    n = len(items)
    if n <= 1:
        return 1, None
    k0 = min(n, CHUNK_PROBE)
    probe = loop_type(step, invariants, Chunks(items, k0), 1)
    saved = np.random.get_state(), random.getstate()
    try:
        _, _, tape = measured_call(probe, tuple(carry))
    finally:                            # (the probe's draws are not the loop's)
        np.random.set_state(saved[0])
        random.setstate(saved[1])
    per = max(tape // k0, 1)
    return int(max(1, min(n, max(snapshots * nbytes(carry), CHUNK_FLOOR) // per))), per
