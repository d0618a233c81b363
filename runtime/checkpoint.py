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
    literal; "auto": chosen when the loop starts, runtime/checkpoint_budget.py
    auto_chunk): each checkpointed step runs k iterations, taped."""
    check_snapshots(snapshots)
    return iterable


class Chunks:
    """A sized iterable cut into consecutive slices of k items (the last shorter),
    made when indexed: O(1) memory for any length (a range's slices are ranges)."""

    def __init__(self, items, k):
        self.items, self.k = items, k
        self.n = -(-len(items) // k)        # (the driver's items are not changed)

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        if not -self.n <= i < self.n:
            raise IndexError(i)
        i %= self.n
        return self.items[i * self.k:(i + 1) * self.k]

    def __iter__(self):
        return (self[i] for i in range(len(self)))


def chunked(step, iterable, where="", k=None):
    """The driver's items: the iterable, or for a chunked step (`thunkgrad_chunk` = k or
    "auto", the compiler's) its slices of k items; k: the chunk size chosen (auto)."""
    k = k or getattr(step, "thunkgrad_chunk", 1)
    if k == 1 and getattr(step, "thunkgrad_chunk", 1) == 1:
        return iterable
    if not isinstance(iterable, SIZED):
        raise TypeError(f"{where}: checkpointed(..., chunk=...) needs a range, list, tuple "
                        f"or array, not {type(iterable).__name__}")
    if k == "auto":                 # (the loop itself, no derivative: one chunk)
        k = max(len(iterable), 1)
    return Chunks(iterable, k)


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
        self.reports = []           # one dict per loop the driver ran (`report()`)

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


    def report(self):
        """A line per loop the driver ran: where, what it chose and from what."""
        return "\n".join(_report_line(r) for r in self.reports)


def _report_line(r):
    said = [f"{r['where']}: {r['decision']}", f"{r['items']:,} iterations"]
    if r.get("chunk", 1) != 1:
        said.append(f"chunks of {r['chunk']:,} ({r['steps']:,} steps)")
    if r.get("snapshots") is not None:
        said.append(f"{r['snapshots']} snapshots, {r['theory']:,} steps to recompute "
                    f"({r.get('schedule', 'binomial')} schedule)")
    for key, what in (("step_tape", "one step's tape"), ("carry", "carry"),
                      ("limit", "limit")):
        if r.get(key) is not None:
            said.append(f"{what} {r[key]:,} bytes")
    return "; ".join(said)


def _report(**fields):
    for stats in _STATS:
        stats.reports.append(dict(fields))


_STATS = []


def checkpoint_stats():
    """Context manager counting checkpointed-loop work inside it."""
    return CheckpointStats()


def _count(field, k=1):
    for stats in _STATS:
        setattr(stats, field, getattr(stats, field) + k)


STEPS = {}     # the compiler's key -> the loop body as a function (its step)
ONLINE = {}    # "run", "rule": the drivers of steps that stop themselves (checkpoint_online)


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
    if getattr(step, "thunkgrad_online", None):     # while, break: checkpoint_online.py
        carry = ONLINE["run"](step, carry, invariants, iterable)
    else:
        for x in chunked(step, iterable, where):
            carry = tuple(step(*carry, *invariants, x))
    refuse_changed_objects(objects, where)
    return carry


