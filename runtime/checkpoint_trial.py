"""memory_limit's taped fallback: the compiler writes a loop it marked as

    _checkpoint_items_12 = range(n)
    _checkpoint_fits_12 = checkpoint_fits(key, (u,), (dt,), _checkpoint_items_12, where)
    if _checkpoint_fits_12:
        (u,) = run_checkpointed(key, (u,), (dt,), _checkpoint_items_12, memory_budget(L), where)
    else:
        for t in _checkpoint_items_12:      # the loop as written, taped
            ...

and a `while` loop the same way, its condition's first value taking the items' place
(the loop as written then tests that value first: checkpointed_auto.py).

(transform/frontend/checkpointed_auto.py). The step is the loop body compiled as a
function of its own, which the whole function's compile does not check: its arguments
look like the caller's data to it (a write into a carried list), a complex carry meets a
rule compiled for real ones, two carries are one object. `checkpoint_fits` compiles the
step's rule and runs step 0 once; any error there sends the loop down the taped branch,
which computes what the unmarked function computes (a user's own error is raised
there again, at its line). The global random generators are put back after the trial."""
import random

import numpy as np

from .checkpoint import SIZED, STEPS, _report
from .registry import ZERO, nondiff


def checkpoint_fits(key, carry, invariants, iterable, where=""):
    """Whether memory_limit's marked loop may run through the checkpointing driver."""
    reason = _refused(key, carry, invariants, iterable)
    if reason is not None:
        while_loop = getattr(STEPS.get(key), "thunkgrad_online", None) == "while"
        n = len(iterable) if isinstance(iterable, SIZED) and not while_loop else 0
        _report(where=where, decision=f"taped as written ({reason})", items=n, steps=n)
    return reason is None


def _refused(key, carry, invariants, iterable):
    """Why the loop runs as written (None: through the driver). A `while` loop's
    `iterable` is its condition's first value."""
    from .checkpoint_rule import Loop, _refuse_functions, _refuse_generators  # (cycle)
    from .checkpoint_online import OnlineLoop
    step = STEPS.get(key)
    kind = getattr(step, "thunkgrad_online", None)
    if step is None or kind != "while" and not isinstance(iterable, SIZED):
        return "its length is not known when it starts"
    try:
        if not (iterable if kind == "while" else len(iterable)):
            return None
    except Exception as exc:    # noqa: BLE001 (an array's truth: raised again as written)
        return f"its condition raised {type(exc).__name__}"
    items = None if kind == "while" else iterable
    try:
        _refuse_generators((carry, invariants), "")
    except TypeError:
        return "it reads a random generator"    # (the trial would move it)
    saved = np.random.get_state(), random.getstate()
    try:
        loop = (OnlineLoop if kind else Loop)(step, invariants, items, 1)
        out, _ = loop.call(tuple(carry), 0)
        _refuse_functions(out, "")     # a function carried: the driver refuses it
    except Exception as exc:    # noqa: BLE001 (any: the taped loop raises a real one again)
        first = str(exc).splitlines()[0] if str(exc) else ""
        return f"its step alone raised {type(exc).__name__}: {first[:160]}"
    finally:
        np.random.set_state(saved[0])
        random.setstate(saved[1])
    return None


nondiff(checkpoint_fits, why=ZERO)      # a test: its result is a bool
