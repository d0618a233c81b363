"""Checkpointing forced on a function's outermost loops, for comparing gradients with
the unmarked function's (issue 21's acceptance: identical, bitwise where the operation
order is the same, else within 1e-12 relative).

grad(..., memory_limit=L) marks the loops (transform/frontend/checkpointed_auto.py);
`forced(s)` makes the driver checkpoint every marked loop it can with s snapshots
whatever its measured tape (runtime/checkpoint_budget.py's choice replaced), so a loop
of more than s steps recomputes. A loop memory_limit leaves taped (not a `for` over a
range or a name, refused by the marker's checks, a step whose rule fails on step 0)
shows as `checkpoint_stats().loops == 0`: a refusal, counted."""
import contextlib

import numpy as np

import runtime.checkpoint_rule as checkpoint_rule
from tests.gradcheck import readonly, rng
from transform import checkpoint_stats, vjp


@contextlib.contextmanager
def forced(snapshots):
    chosen = checkpoint_rule.snapshots_for
    checkpoint_rule.snapshots_for = lambda limit, steps, *_, **__: min(snapshots, steps)
    try:
        yield
    finally:
        checkpoint_rule.snapshots_for = chosen


def cotangents(fn, args, wrt, kwargs=None, limit=None):
    """(fn's cotangents for the positions in wrt, from a fixed random output cotangent,
    checkpoint_stats of the call) with memory_limit=limit."""
    with checkpoint_stats() as stats:
        out, pullback = vjp(fn, *readonly(args), wrt=wrt, memory_limit=limit, **(kwargs or {}))
        cot = rng(0).normal(size=np.shape(out))
        got = pullback(float(cot) if np.ndim(out) == 0 else cot)
    return got, stats


def leaves(tree):
    if isinstance(tree, (list, tuple)):
        for v in tree:
            yield from leaves(v)
    elif isinstance(tree, dict):
        for k in sorted(tree, key=repr):
            yield from leaves(tree[k])
    else:
        yield tree


def difference(got, want):
    """0.0 when bitwise equal, else the largest relative difference (inf: another
    structure, a None against a non-zero)."""
    pairs = list(zip(leaves(got), leaves(want)))
    if len(pairs) != len(list(leaves(want))):
        return np.inf
    worst = 0.0
    for a, b in pairs:
        if a is None or b is None:
            other = b if a is None else a
            worst = worst if other is None or np.all(np.asarray(other) == 0) else np.inf
            continue
        a, b = np.asarray(a), np.asarray(b)
        if a.dtype == object or b.dtype == object:
            worst = worst if all(x is y or x == y for x, y in zip(a.ravel(), b.ravel())) \
                else np.inf
            continue
        if a.shape != b.shape:
            return np.inf
        if not np.array_equal(a, b, equal_nan=True):
            worst = max(worst, float(np.max(np.abs(a - b) / np.maximum(np.abs(b), 1e-300))))
    return worst
