"""Stage 1a for checkpointed loops that jump: a `while` loop marked
`while checkpointed_while(cond, snapshots=s):`, and a marked `for` loop whose body has
`break` or `continue` (not inside an inner loop). Runs before checkpointed_loops, which
rewrites the other marked loops (transform/frontend/checkpointed.py: the names, the
checks and the step function are its; this module adds the jumps).

    while checkpointed_while(e > tol, snapshots=s):   ->  (x, e) = run_checkpointed(
        x = f(x); e = err(x)                                 key, (x, e), (), e > tol, s, where)
        if e < 0: continue                                 step(x, e) -> (go on?, x, e):
                                                             body; `continue` and the end:
                                                             return (e > tol, x, e);
                                                             `break`: return (False, x, e)

A `for` loop with `break` is written the same way (its step takes the item; its flag is
True but after a `break`): both run the online schedule (runtime/checkpoint_online.py),
as their trip count is not known when they start. A `for` loop with `continue` only
keeps the binomial schedule: its step returns the carried names at a `continue`.
The condition is evaluated where Python evaluates it (before the loop, then after each
step that does not break), so its reads are carried or invariant like the body's.
"""
import copy

import gast

from runtime.checkpoint import checkpointed, register_step, run_checkpointed
from runtime.checkpoint_online import checkpointed_while
from .checkpointed import _may_mark as may_mark_for, step_function
from .source_check import filled
from .checkpointed import _base, _loop_names, _marker_arguments, _plain_advance, \
    _refuse_in, _refuse_unsupported, _step_key, _tuple, _without, _written
from .checkpointed_after import read_outside, with_last_item
from .checkpointed_random import refuse_random_draws
from ..ir.nodes import const, load, store

_FAKE = "_thunkgrad_while_loop"        # a while loop's stand-in loop variable (unused)


def online_loops(src, explain=False):
    """Rewrite src's outermost marked loops that jump or are `while` loops in place;
    refuse checkpointed_while anywhere but as a while loop's condition."""
    if not _may_mark(src) or not any(src.resolve(c.func) in (checkpointed, checkpointed_while)
                                     for c in src.calls()):
        return                  # (most functions: no resolving, no guards added)
    src.node.body = _block(src, src.node.body, explain)
    for c in _outside_marked(src, src.node):
        if isinstance(c, gast.Call) and src.resolve(c.func) is checkpointed_while:
            raise src.error("checkpointed_while(...) marks the condition of a while loop "
                            "only", c, hint="write `while checkpointed_while(x > tol, "
                            "snapshots=s):`")
    src.refresh()


def unmark_while_loops(src):
    """Forward mode: `while checkpointed_while(c, snapshots=s):` -> `while c:`."""
    if not _may_mark(src) or \
            not any(src.resolve(c.func) is checkpointed_while for c in src.calls()):
        return
    for loop in gast.walk(src.node):
        if _marked_while(src, loop):
            loop.test = _while_arguments(src, loop.test)[0]
    src.refresh()


def _may_mark(src):
    """Whether src may call either marker (its name in the source, or bound under
    another name among the function's globals or closure)."""
    fn = getattr(src.fn, "__func__", src.fn)
    seen = [*getattr(fn, "__globals__", {}).values(),
            *[c.cell_contents for c in getattr(fn, "__closure__", None) or () if filled(c)]]
    return may_mark_for(src) or any(v is checkpointed_while for v in seen)


def _marked_while(src, s):
    return isinstance(s, gast.While) and isinstance(s.test, gast.Call) and \
        src.resolve(s.test.func) is checkpointed_while


def _marked_for(src, s):
    return isinstance(s, gast.For) and isinstance(s.iter, gast.Call) and \
        src.resolve(s.iter.func) is checkpointed


def _outside_marked(src, node):
    """The nodes below `node` outside the marked `for` loops left (their steps' own)."""
    for child in gast.iter_child_nodes(node):
        yield child
        if not _marked_for(src, child):
            yield from _outside_marked(src, child)


def _block(src, body, explain):
    out = []
    for k, s in enumerate(body):
        if _marked_while(src, s):
            out.extend(_in_place(src, body, k, _stand_in(src, s), explain))
            continue
        if _marked_for(src, s):
            out.extend(_in_place(src, body, k, s, explain) if _jumps(s.body) else [s])
            continue
        for field in ("body", "orelse", "finalbody"):
            if isinstance(getattr(s, field, None), list):
                setattr(s, field, _block(src, getattr(s, field), explain))
        for h in getattr(s, "handlers", ()):
            h.body = _block(src, h.body, explain)
        out.append(s)
    return out


def _in_place(src, body, k, loop, explain):
    """[the driver call for loop, ...], analysed standing at body[k] (the names read
    outside it are those of the tree without it)."""
    was, body[k] = body[k], loop
    try:
        return _rewrite(src, loop, explain)
    finally:
        body[k] = was


def _stand_in(src, w):
    """A marked while loop as the `for` loop the analyses know: its condition read
    before the body (so what it reads is carried or invariant), a variable nobody reads."""
    cond, snapshots = _while_arguments(src, w.test)
    if w.orelse:
        raise src.error("a loop `else` in a checkpointed loop is not supported", w,
                        hint="set a flag in the body and test it after the loop")
    if _FAKE in src.locals:
        raise src.error(f"a checkpointed while loop uses the name {_FAKE!r}", w,
                        hint=f"rename the function's variable {_FAKE}")
    test = gast.Expr(value=copy.deepcopy(cond))
    loop = gast.For(target=store(_FAKE), iter=w.test, body=[test] + w.body, orelse=[],
                    type_comment=None)
    for n in (loop, test):
        gast.copy_location(n, w)
    loop.while_test = (cond, snapshots)
    return loop


def _while_arguments(src, call):
    """(the condition, the snapshots expression) of checkpointed_while(cond, snapshots=s)."""
    given = {kw.arg: kw.value for kw in call.keywords}
    args = list(call.args)
    if len(args) == 2 and "snapshots" not in given:
        given["snapshots"] = args.pop()
    if len(args) != 1 or set(given) != {"snapshots"}:
        raise src.error("checkpointed_while takes the condition and snapshots=s", call,
                        hint="write `while checkpointed_while(x > tol, snapshots=s):`")
    return args[0], given["snapshots"]


_LOOPS = (gast.For, gast.While, gast.AsyncFor)
_SCOPES = (gast.FunctionDef, gast.AsyncFunctionDef, gast.Lambda, gast.ClassDef)


def _jumps(body, depth=0):
    """The break and continue statements leaving the body (not an inner loop's; one in
    an inner loop's `else` is the body's)."""
    found = []
    for node in body:
        if isinstance(node, (gast.Break, gast.Continue)) and depth == 0:
            found.append(node)
        elif isinstance(node, _LOOPS):
            found += _jumps(node.body, depth + 1) + _jumps(node.orelse, depth)
        elif not isinstance(node, _SCOPES):
            found += _jumps(list(gast.iter_child_nodes(node)), depth)
    return found


def _refuse_jumps_in_try(src, body, depth=0, guarded=False):
    """A jump leaving the body from inside a `try` statement: the step would return
    there, which the compiler does not take inside `try` (and whose values a `finally`
    block could change after they are taken), so it is refused in the user's words."""
    for node in body:
        if isinstance(node, (gast.Break, gast.Continue)) and depth == 0 and guarded:
            raise src.error("`break` or `continue` inside a `try` statement in a "
                            "checkpointed loop is not supported", node,
                            hint="set a flag inside the try statement, and break or "
                                 "continue after it")
        if isinstance(node, _LOOPS):
            _refuse_jumps_in_try(src, node.body, depth + 1, guarded)
            _refuse_jumps_in_try(src, node.orelse, depth, guarded)
        elif not isinstance(node, _SCOPES):
            _refuse_jumps_in_try(src, list(gast.iter_child_nodes(node)), depth,
                                 guarded or isinstance(node, gast.Try))


def _jumps_returning(stmts, make):
    """stmts with each jump leaving them replaced by make(jump) (a return)."""
    out = []
    for s in stmts:
        if isinstance(s, (gast.Break, gast.Continue)):
            r = make(s)
            for n in gast.walk(r):
                gast.copy_location(n, s)
            out.append(r)
            continue
        if isinstance(s, _LOOPS):
            s.orelse = _jumps_returning(s.orelse, make)
        elif not isinstance(s, _SCOPES):
            for field in ("body", "orelse", "finalbody"):
                if isinstance(getattr(s, field, None), list):
                    setattr(s, field, _jumps_returning(getattr(s, field), make))
            for part in [*getattr(s, "handlers", ()), *getattr(s, "cases", ())]:
                part.body = _jumps_returning(part.body, make)
        out.append(s)
    return out


def _rewrite(src, loop, explain):
    """[the driver's call] (a `for` loop whose variable is read outside it and that
    only `continue`s: the last item after it, checkpointed_after.py)."""
    test = getattr(loop, "while_test", None)
    if test is None:
        first, snapshots, k = _marker_arguments(src, loop.iter)
        if k > 1:
            raise src.error("chunk= in a checkpointed loop with break or continue is not "
                            "supported", loop.iter, hint="drop chunk=")
        _refuse_unsupported(src, loop, first, jumps=True)
    else:
        first, snapshots = test
        for s in loop.body:
            _refuse_in(src, s, 0, True)
        refuse_random_draws(src, loop)
    _refuse_jumps_in_try(src, loop.body)
    carried, invariants = _loop_names(src, loop)
    _refuse_changes(src, loop, carried, first if test is None else None)
    breaks = test is not None or any(isinstance(j, gast.Break) for j in _jumps(loop.body))
    step = _step(src, loop, carried, invariants, test, breaks)
    step.thunkgrad_plain_advance = _plain_advance(src, loop.body)
    if breaks:
        step.thunkgrad_online = "for" if test is None else "while"
    key = register_step(_step_key(src, loop) + (":online" if breaks else ":jumps"), step)
    driver = load("run_checkpointed")
    driver.runtime_helper = run_checkpointed
    call = gast.Call(func=driver, args=[
        const(key), _tuple(carried), _tuple(invariants), copy.deepcopy(first), snapshots,
        const(_where(src, loop, carried, invariants, explain, breaks))], keywords=[])
    s = gast.Assign(targets=[gast.Tuple(elts=[store(n) for n in carried], ctx=gast.Store())],
                    value=call, type_comment=None) if carried else gast.Expr(value=call)
    for n in gast.walk(s):
        if "lineno" in n._attributes:
            gast.copy_location(n, loop)
    if test is None and read_outside(src, loop, _without(src.node.body, loop)):
        if breaks:          # (its last value is the item of the step that broke)
            raise src.error("the loop variable of a checkpointed loop with `break` is read "
                            "outside the loop", loop.target, hint=f"bind it to another "
                            f"name before the loop and in the body (last = "
                            f"{loop.target.id}), and read that name after the loop")
        return with_last_item(src, loop, s)
    return [s]


def _refuse_changes(src, loop, carried, iterable):
    if loop.target.id in _written(src, loop.body):
        raise src.error("a checkpointed loop's body writes into its loop variable",
                        loop.target, hint="write into a copy under another name: "
                        "`w = v.copy()`")
    if iterable is not None and _base(iterable) in carried:
        raise src.error("a checkpointed loop's body changes what it iterates over",
                        iterable, hint="iterate over a copy: checkpointed(list(xs), ...)")


def _where(src, loop, carried, invariants, explain, online):
    where = f"{src.filename}:{src.first_line + loop.lineno - 1}"
    if not explain:
        return where
    schedule = ("online schedule (trip count unknown: snapshots thinned as the loop runs, "
                "binomial segments once it stops; runtime/online.py)" if online else
                "binomial (revolve) schedule, `continue` ending the step")
    return (f"{where}: checkpointed loop, {schedule}, at most `snapshots` stored carries "
            f"(the loop's input one of them); step {src.name}_checkpointed_step carries "
            f"({', '.join(carried)}), reads ({', '.join(invariants)}) as invariants")


def _step(src, loop, carried, invariants, test, breaks):
    """The loop body as a function of (carried..., invariants..., [item]) returning
    ([go on?], *carried), its jumps turned into returns."""
    body = copy.deepcopy(loop.body[1:] if test is not None else loop.body)
    params = carried + invariants + ([] if test is not None else [loop.target.id])

    def ret(go):
        elts = [go] if breaks else []
        return gast.Return(value=gast.Tuple(elts=elts + [load(n) for n in carried],
                                            ctx=gast.Load()))
    on = (lambda: copy.deepcopy(test[0])) if test is not None else (lambda: const(True))
    body = _jumps_returning(body, lambda j: ret(const(False) if isinstance(j, gast.Break)
                                                else on()))
    return step_function(src, loop, body + [ret(on())], params)
