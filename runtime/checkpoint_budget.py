"""memory_limit's loops: the driver measures one step's tape and either tapes the loop
(all its steps' pullbacks fit in the limit) or picks the snapshot count that fits.

A loop of n steps whose one-step tape is e bytes (tracemalloc's difference around the
step rule's call: arrays and Python objects it keeps) and whose carry is c bytes: taped
when n * e <= limit, else checkpointed with s = (limit - 2e - 2c) // 3c snapshots (the
sweeps hold s carries, one step's tape and the cotangents' working copies; a held
snapshot measured ~2c under tracemalloc on the heat loop (not explained yet), hence 3c), and a
MemoryError when not even one snapshot fits."""
import tracemalloc

import numpy as np


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
