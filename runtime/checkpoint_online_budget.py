"""memory_limit's `while` loops and `for` loops with `break` (the online steps of
runtime/checkpoint_online.py). Their trip count is not known when they start, so the
driver cannot compare n x one step's tape with the limit beforehand, as it does for a
`for` loop (runtime/checkpoint_budget.py). It measures step 0's tape e (tracemalloc)
and the carry's bytes c, and tapes the loop (each step's pullback kept) while the
tapes of the steps run so far fit beside the working copies the snapshot formula below
allows for, (i + 1) e + 2e + 2c <= limit: a loop that stops within that is taped, as
unmarked. One that would go past it drops its tape and runs again from its input by the
online schedule with s = (limit - 2e - 2c) // 3c snapshots (MemoryError below one), as
many as a `for` loop of unknown length would get: the steps run twice are those whose
tapes fitted, at most limit / e of them. A loop whose steps drew from np.random or
random (their state moved) is never run again: it is taped to its end."""
import random
import sys

import numpy as np

from . import checkpoint_rule, online
from .checkpoint import ONLINE, _count, _report
from .checkpoint_budget import measured_call, nbytes
from .checkpoint_online import OnlineLoop
from .checkpoint_rule import _global_draws, _items, _pullback, _refuse_generators


def budgeted_online(step, carry, invariants, first, limit, where):
    """run_checkpointed's rule for an online step under memory_limit: (output, pullback)."""
    kind = step.thunkgrad_online
    loop = OnlineLoop(step, invariants, None if kind == "while" else _items(first, where), 1)
    loop.where = where
    if not (first if loop.items is None else len(loop.items)):
        return carry, _pullback(loop, lambda g: g, first, where)
    said = dict(where=where, limit=limit, carry=nbytes(carry))
    try:
        _refuse_generators((carry, invariants), where)
    except TypeError:
        return _Taped(loop, carry, loop.call(carry, 0)).to_the_end(
            first, said, "taped (a random generator read)")
    saved, drawn = (np.random.get_state(), random.getstate()), _global_draws()
    out, pullback, tape = measured_call(loop, carry)
    said["step_tape"] = tape
    if _global_draws() != drawn:
        np.random.set_state(saved[0])
        random.setstate(saved[1])
        del out, pullback
        return _Taped(loop, carry, loop.call(carry, 0)).to_the_end(
            first, said, "taped (step 0 drew from np.random or random)")
    run = _Taped(loop, carry, (out, pullback))
    run.until(lambda i: (i + 3) * tape + 2 * said["carry"] > limit)
    if run.stopped():
        return run.result(first, said, "taped (the steps' tapes fitted in the limit)")
    if _global_draws() != drawn:
        return run.to_the_end(first, said, "taped (a step drew from np.random or random: "
                                           "not run again)")
    del run, out, pullback
    loop.snapshots = checkpoint_rule.snapshots_for(limit, sys.maxsize, tape, said["carry"],
                                                   where)
    return _checkpointed(loop, carry, first, where, said)


def _checkpointed(loop, carry, first, where, said):
    _count("loops")
    out, held = loop.forward(carry, first if loop.items is None else True)
    _report(decision="checkpointed by memory_limit (trip count unknown; past the limit "
            "taped: run again with snapshots = (limit - 2 tape - 2 carry) // (3 carry))",
            items=loop.n, steps=loop.n, snapshots=loop.snapshots,
            theory=online.recomputations(loop.n, loop.snapshots), schedule="online", **said)
    return out, _pullback(loop, lambda g: loop.backward(g, held), first, where)


class _Taped:
    """An online loop run keeping each step's pullback (step 0's given)."""

    def __init__(self, loop, carry, first_step):
        self.loop, self.n = loop, len(carry)
        self.out, pullback = first_step
        self.pullbacks = [pullback]

    def stopped(self):
        return not self.loop.go or self.loop.items is not None and \
            len(self.pullbacks) == len(self.loop.items)

    def until(self, full):
        """Run steps until the loop stops or full(steps run) says the tape is full."""
        while not self.stopped() and not full(len(self.pullbacks)):
            self.out, pullback = self.loop.call(self.out, len(self.pullbacks))
            self.pullbacks.append(pullback)

    def to_the_end(self, first, said, decision):
        self.until(lambda i: False)
        return self.result(first, said, decision)

    def result(self, first, said, decision):
        steps = len(self.pullbacks)
        _report(decision=decision, items=steps, steps=steps, **said)

        def backward(g):
            for i in reversed(range(steps)):
                g = self.loop.pulled(self.pullbacks[i], self.n, i, g)
            return g
        return self.out, _pullback(self.loop, backward, first, said["where"])


ONLINE["budgeted"] = budgeted_online      # (runtime/__init__ imports this module)
