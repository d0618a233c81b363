"""Stage 1a, grad(..., memory_limit=L): the function's outermost `for` loops over a
range or a name become checkpointed loops whose snapshot count the driver picks when
the loop starts (runtime/checkpoint_budget.py: taped if its tape fits in L), the loop
as written kept as the taped fallback when the step cannot run through the driver
(runtime/checkpoint_trial.py says why and what the code looks like). Its outermost
`while` loops and `for` loops with `break` become online checkpointed loops
(checkpointed_online.py; runtime/checkpoint_online_budget.py: taped while their tapes
fit in L); a `while` loop's taped fallback tests the condition's value the driver was
given first, then the condition (it is evaluated once per test, as written).

Best effort: a loop the marker's checks refuse (transform/frontend/checkpointed.py)
stays taped, without an error; a loop inside a `while` is not outermost. The limit
comes with the function: grad makes a copy of it carrying `thunkgrad_memory_limit`
(transform/public/memory_limit.py), so its compiled rules are cached apart."""
import copy

import gast

from runtime.checkpoint import checkpointed, memory_budget
from runtime.checkpoint_online import checkpointed_while
from runtime.checkpoint_trial import checkpoint_fits
from .checkpointed import _rewrite
from .checkpointed_online import _in_place, _jumps, _rewrite as _rewrite_online, _stand_in
from ..errors import TransformError
from ..ir.nodes import assign, const, load


def memory_limit_loops(src, explain=False):
    """Mark src's outermost loops when its function carries a memory limit; how many."""
    limit = getattr(src.fn, "thunkgrad_memory_limit", None)
    if limit is None:
        return 0
    src.limit_notes = []                # (`thunkgrad dump --explain` prints them)
    src.node.body = _block(src, src.node.body, limit, explain)
    src.refresh()
    return sum(isinstance(n, gast.Call) and getattr(n.func, "runtime_helper", None) is
               checkpoint_fits for n in gast.walk(src.node))


def _block(src, body, limit, explain):
    out = []
    for k, s in enumerate(body):
        if isinstance(s, gast.For):
            out.extend(_marked(src, s, limit, explain))
            continue
        if isinstance(s, gast.While):
            out.extend(_marked_while(src, body, k, limit, explain))
            continue
        if isinstance(s, gast.AsyncFor):
            _note(src, s, "taped: memory_limit does not mark `async for` loops")
            out.append(s)
            continue
        for field in ("body", "orelse", "finalbody"):
            if isinstance(getattr(s, field, None), list):
                setattr(s, field, _block(src, getattr(s, field), limit, explain))
        for h in getattr(s, "handlers", ()):
            h.body = _block(src, h.body, limit, explain)
        out.append(s)
    return out


def _marked(src, loop, limit, explain):
    """[the items' assignment, `if checkpoint_fits(...)`: the driver's call, else the
    loop], or [the loop] (taped)."""
    it = loop.iter
    if isinstance(it, gast.Call) and src.resolve(it.func) is checkpointed:
        _note(src, loop, "marked by the user: its own snapshots")
        return [loop]                   # the user's marker: checkpointed_loops's
    if not (isinstance(it, gast.Name) or isinstance(it, gast.Call) and
            src.resolve(it.func) is range):
        _note(src, loop, "taped: memory_limit marks loops over range(...) or a name")
        return [loop]                   # (an iterator's length is not known)
    marker = load("checkpointed")
    marker.runtime_helper = checkpointed
    given = loop.iter                   # (marked in place: the checks look at the tree)
    loop.iter = gast.Call(func=marker, args=[given], keywords=[gast.keyword(
        arg="snapshots", value=_budget(limit))])
    online = bool(_jumps(loop.body))    # (break, continue: checkpointed_online.py's)
    try:
        [driven] = (_rewrite_online if online else _rewrite)(src, loop, explain)
    except ValueError:                  # (hoisted for its variable read after it)
        loop.iter = given
        _note(src, loop, "taped: its loop variable is read outside it")
        return [loop]
    except TransformError as exc:
        loop.iter = given
        _note(src, loop, f"taped: the checkpointed loop's checks refuse it ({exc.message})")
        return [loop]
    _note(src, loop, (ONLINE if any(isinstance(j, gast.Break) for j in _jumps(loop.body))
                      else MEASURED).format(limit=limit))
    return _with_fallback(src, loop, given, driven)


def _budget(limit):
    budget = load("memory_budget")
    budget.runtime_helper = memory_budget
    return gast.Call(func=budget, args=[const(limit)], keywords=[])


def _marked_while(src, body, k, limit, explain):
    """[the condition's first value, `if checkpoint_fits(...)`: the driver's call, else
    the loop testing that value first], or [the loop] (taped)."""
    w = body[k]
    names = [f"_checkpoint_{what}_{w.lineno}" for what in ("first", "again", "fits")]
    if any(n in src.locals for n in names):
        _note(src, w, f"taped: the function has a variable named like {names[0]}")
        return [w]
    marker, cond = load("checkpointed_while"), w.test
    marker.runtime_helper = checkpointed_while
    w.test = gast.Call(func=marker, args=[cond], keywords=[gast.keyword(
        arg="snapshots", value=_budget(limit))])
    try:
        [driven] = _in_place(src, body, k, _stand_in(src, w), explain)
    except TransformError as exc:
        w.test = cond
        _note(src, w, f"taped: the checkpointed loop's checks refuse it ({exc.message})")
        return [w]
    _note(src, w, ONLINE.format(limit=limit))
    first, again, fit = names
    call = driven.value
    call.args[3] = load(first)
    test = gast.Call(func=load("checkpoint_fits"), args=[copy.deepcopy(a) for a in
                     call.args[:3]] + [load(first), copy.deepcopy(call.args[5])], keywords=[])
    test.func.runtime_helper = checkpoint_fits
    w.test = gast.IfExp(test=load(again), body=cond, orelse=load(first))
    w.body = [assign(again, const(True))] + w.body
    return _located([assign(first, copy.deepcopy(cond)), assign(again, const(False)),
                     assign(fit, test), gast.If(test=load(fit), body=[driven], orelse=[w])], w)


MEASURED = ("checkpointed if its tape exceeds {limit:,} bytes: when the loop starts, the "
            "driver runs step 0 under tracemalloc (e: the bytes its tape keeps) and sums "
            "the carry's nbytes (c); n steps are taped when n * e <= limit, else "
            "checkpointed with (limit - 2e - 2c) // 3c snapshots (MemoryError below one); "
            "run as written (taped) when the step alone fails on step 0 "
            "(checkpoint_stats().report() says what was chosen)")
ONLINE = ("checkpointed if its tape would exceed {limit:,} bytes (online schedule: its "
          "trip count is not known when it starts): the driver runs step 0 under "
          "tracemalloc (e: the bytes its tape keeps), sums the carry's nbytes (c) and "
          "tapes the loop while (steps run + 3) * e + 2c <= limit; past that it runs the loop "
          "again from its input with (limit - 2e - 2c) // 3c snapshots (MemoryError below "
          "one); run as written (taped) when the step alone fails on step 0 "
          "(checkpoint_stats().report() says what was chosen)")


def _note(src, loop, text):
    src.limit_notes.append(f"memory_limit: loop at line "
                           f"{src.first_line + loop.lineno - 1}: {text}")


def _with_fallback(src, loop, given, driven):
    """The iterable evaluated once into a name both branches read."""
    items = f"_checkpoint_items_{loop.lineno}"
    if items in src.locals or f"_checkpoint_fits_{loop.lineno}" in src.locals:
        loop.iter = given
        return [loop]
    call = driven.value
    call.args[3], loop.iter = load(items), load(items)
    fits = load("checkpoint_fits")
    fits.runtime_helper = checkpoint_fits
    test = gast.Call(func=fits, args=[copy.deepcopy(a) for a in call.args[:3]] +
                     [load(items), copy.deepcopy(call.args[5])], keywords=[])
    fit = f"_checkpoint_fits_{loop.lineno}"     # (a call as an `if` test is not lowered
    return _located([assign(items, given), assign(fit, test),      # like an assignment's)
                     gast.If(test=load(fit), body=[driven], orelse=[loop])], loop)


def _located(out, loop):
    """out, its new nodes at the loop's line."""
    for s in out:
        for n in gast.walk(s):
            if "lineno" in n._attributes and getattr(n, "lineno", None) is None:
                gast.copy_location(n, loop)
    return out
