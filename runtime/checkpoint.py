"""Checkpointed loops: `for t in checkpointed(range(n), snapshots=s):` in bounded memory.

In plain Python `checkpointed` returns its iterable. Under differentiation the compiler
(transform/frontend/checkpointed.py) writes the loop as

    (u, total) = run_checkpointed(key, (u, total), (dt, W), range(n), s, where)

where the step registered under `key`, `step(u, total, dt, W, t)`, is the loop body
returning the carried values. The rule (runtime/checkpoint_rule.py) runs the forward
sweep through the step's compiled rule, keeping at most `s` carries (the first is the
loop's input), and its pullback reverses the steps by the
binomial schedule (runtime/revolve.py): it recomputes segments from the snapshots, and
pulls the cotangents back through one step at a time (the step's own forward and
pullback), adding the invariants' cotangents into buffers it owns. Nothing is deferred:
every cotangent it returns is a value. runtime never imports transform: the step is
differentiated through runtime/callees.py, which the compiler provides.
"""
import numpy as np

SIZED = (range, list, tuple, np.ndarray)


def checkpointed(iterable, snapshots, chunk=1):
    """Mark a `for` loop to be reversed by checkpointing with at most `snapshots` stored
    loop states; returns `iterable` (a no-op outside differentiation). chunk=k (a
    literal, over a range): each checkpointed step runs k iterations, taped."""
    check_snapshots(snapshots)
    return iterable


def chunked(step, iterable, where=""):
    """The driver's items: the iterable, or for a chunked step (`thunkgrad_chunk` = k,
    the compiler's) the range cut into ranges of k items, the last one shorter."""
    k = getattr(step, "thunkgrad_chunk", 1)
    if k == 1:
        return iterable
    if not isinstance(iterable, range):
        raise TypeError(f"{where}: checkpointed(..., chunk={k}) needs a range, not "
                        f"{type(iterable).__name__}")
    return [iterable[j:j + k] for j in range(0, len(iterable), k)]


class Budget:
    """grad(..., memory_limit=...)'s snapshots for a loop it marked: chosen by the
    driver when the loop starts (runtime/checkpoint_budget.py), `limit` bytes."""

    def __init__(self, limit):
        self.limit = limit


def memory_budget(limit):
    """What the compiler writes as a marked loop's snapshots under memory_limit."""
    return Budget(limit)


def check_snapshots(snapshots):
    if isinstance(snapshots, Budget):
        return
    if isinstance(snapshots, bool) or not isinstance(snapshots, (int, np.integer)) \
            or snapshots < 1:
        raise ValueError("checkpointed(..., snapshots=s) needs an integer s >= 1, "
                         f"not {snapshots!r}")


class CheckpointStats:
    """What `checkpoint_stats()` reports for the checkpointed loops run inside it:
    `steps` (loop steps), `advances` (the forward sweep's step evaluations, without a
    pullback), `recomputed` (those the backward sweep made again), `reversed` (steps
    pulled back), `peak_snapshots` (most carries held at once, the loop's input
    included), `loops` (checkpointed loops run)."""

    def __init__(self):
        self.steps = self.advances = self.recomputed = self.reversed = 0
        self.peak_snapshots = self.loops = 0

    def __enter__(self):
        _STATS.append(self)
        return self

    def __exit__(self, *exc):
        _STATS.remove(self)
        return False

    def __repr__(self):
        return (f"CheckpointStats(loops={self.loops}, steps={self.steps}, "
                f"advances={self.advances}, recomputed={self.recomputed}, "
                f"reversed={self.reversed}, peak_snapshots={self.peak_snapshots})")


_STATS = []


def checkpoint_stats():
    """Context manager counting checkpointed-loop work inside it."""
    return CheckpointStats()


def _count(field, k=1):
    for stats in _STATS:
        setattr(stats, field, getattr(stats, field) + k)


STEPS = {}     # the compiler's key -> the loop body as a function (its step)


def register_step(key, step):
    """Called by the compiler for each checkpointed loop it rewrites; returns the key the
    generated code passes. A key taken by a step of other globals (the same source run
    in two namespaces) gets a suffix: that step reads other globals."""
    taken, k = key, 1
    while taken in STEPS and STEPS[taken].__globals__ is not step.__globals__:
        k += 1
        taken = f"{key}#{k}"
    STEPS[taken] = step
    return taken


def run_checkpointed(key, carry, invariants, iterable, snapshots, where=""):
    """The loop itself: what the marked loop computes (no derivative)."""
    check_snapshots(snapshots)
    step = STEPS[key]
    from .checkpoint_objects import object_states, refuse_changed_objects
    objects = object_states((carry, invariants))
    for x in chunked(step, iterable, where):
        carry = tuple(step(*carry, *invariants, x))
    refuse_changed_objects(objects, where)
    return carry


