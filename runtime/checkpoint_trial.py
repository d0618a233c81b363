"""memory_limit's taped fallback: the compiler writes a loop it marked as

    _checkpoint_items_12 = range(n)
    if checkpoint_fits(key, (u,), (dt,), _checkpoint_items_12):
        (u,) = run_checkpointed(key, (u,), (dt,), _checkpoint_items_12, memory_budget(L), where)
    else:
        for t in _checkpoint_items_12:      # the loop as written, taped
            ...

(transform/frontend/checkpointed_auto.py). The step is the loop body compiled as a
function of its own, which the whole function's compile does not check: its arguments
look like the caller's data to it (a write into a carried list), a complex carry meets a
rule compiled for real ones, two carries are one object. `checkpoint_fits` compiles the
step's rule and runs step 0 once; any error there sends the loop down the taped branch,
which computes what the unmarked function computes (a user's own error is raised
there again, at its line). The global random generators are put back after the trial."""
import random

import numpy as np

from .checkpoint import SIZED, STEPS
from .registry import ZERO, nondiff


def checkpoint_fits(key, carry, invariants, iterable):
    """Whether memory_limit's marked loop may run through the checkpointing driver."""
    from .checkpoint_rule import Loop, _refuse_generators    # (it imports this module)
    step = STEPS.get(key)
    if step is None or not isinstance(iterable, SIZED) or len(iterable) == 0 or \
            getattr(step, "thunkgrad_chunk", 1) != 1:
        return step is not None and isinstance(iterable, SIZED)
    try:
        _refuse_generators((carry, invariants), "")
    except TypeError:
        return False            # (a generator the trial would move: taped, drawn once)
    saved = np.random.get_state(), random.getstate()
    try:
        Loop(step, invariants, iterable, 1).call(tuple(carry), 0)
    except Exception:           # noqa: BLE001 (any: the taped loop raises a real one again)
        return False
    finally:
        np.random.set_state(saved[0])
        random.setstate(saved[1])
    return True


nondiff(checkpoint_fits, why=ZERO)      # a test: its result is a bool
