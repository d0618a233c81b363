"""Route "auto" of hvp (transform/hessians.py) and a recursive function: forward over
reverse runs a callee's flat gradient inside the caller's, one callee_vjp per level
(transform/flat_calls.py), a few frames of generated code each, and refuses calls
nested deeper than flat_calls.MAX_DEPTH (40) as they run, before Python's recursion
limit would; reverse over forward takes recursion as deep as the function itself goes.
How deep a call recurses is known only as it runs (a count argument, a loop), so auto
takes reverse over forward, before anything runs, for a function reaching a cycle of
calls among the user's functions (found in their code objects: a name read from the
globals or a closure cell, in nested functions too). Route "forward_over_reverse"
still takes recursion up to that depth.

The same walk finds a function of the user's, reached from the one differentiated, that
calls a derivative function (grad, jvp, hessian...) or marks a loop `checkpointed`:
forward over reverse refuses those in a callee only once its flat gradient is built, as
the code runs (transform/hvp_forward.py refuse_run_time_sites); auto takes reverse over
forward for them before anything runs (which refuses most of them too, at the user's line).
"""
import types
import weakref

from .errors import TransformError, at_definition
from .frontend.source_check import filled

_NOT_USER = ("runtime", "transform", "numpy", "scipy", "builtins")


_DERIVATIVES = {"grad", "value_and_grad", "vjp", "jacrev", "jacobian", "jvp", "jacfwd",
                "hvp", "hessian", "checkpointed", "checkpointed_while"}


def refuse_run_time_callees(plain):
    """TransformError at plain's `def` when a call from plain reaches a cycle of calls,
    or a function of the user's calling a derivative function or `checkpointed`."""
    done = {}                     # a function visited -> the values its code names
    cycle = _cycle(plain, [], done)
    if cycle is None:
        for fn in sorted(done, key=lambda f: f.__qualname__):
            named = _derivative_named(done[fn])
            if named is not None:
                raise at_definition(plain, f"hvp (forward over reverse): {fn.__qualname__} "
                                    f"calls {named}, which this route refuses only as it "
                                    f"runs", hint="use hvp's route=\"reverse_over_forward\"")
        return
    names = " -> ".join(fn.__qualname__ for fn in cycle)
    raise at_definition(plain, f"hvp (forward over reverse): recursive calls ({names}): "
                        f"their depth is known only as they run, and this route refuses "
                        f"calls nested deeper than 40",
                        hint="use hvp's route=\"reverse_over_forward\" (route \"auto\" "
                        "takes it for such a function)")


def _cycle(fn, path, done):
    """The functions of a cycle reached from fn (path: the calls leading to fn), or None."""
    if fn in path:
        return path[path.index(fn):] + [fn]
    if fn in done:
        return None
    path.append(fn)
    named = _named(fn)
    for callee in _callees(named):
        found = _cycle(callee, path, done)
        if found is not None:
            return found
    path.pop()
    done[fn] = named
    return None


def _derivative_named(named):
    """The name of a derivative function (or checkpointed) among the values a function's
    code names (_named), or None."""
    return next((value.__name__ for value in named if isinstance(value, types.FunctionType)
                 and (value.__module__ or "").split(".")[0] in ("transform", "runtime")
                 and value.__name__ in _DERIVATIVES), None)


def _callees(named):
    """The user's functions among the values a function's code names (_named: globals,
    closure cells; nested code too)."""
    found = []
    for value in named:
        if _user_function(value) and value not in found:
            found.append(value)
    return found


def _named(fn):
    """The values of the global and closure names fn's code (nested code too) reads
    (the names kept per code object, the values looked up at each call)."""
    cells = {name: cell.cell_contents for name, cell in
             zip(fn.__code__.co_freevars, fn.__closure__ or ()) if filled(cell)}
    return [cells.get(name, fn.__globals__.get(name)) for name in _names_read(fn.__code__)]


_NAMES = weakref.WeakKeyDictionary()     # a code object -> the names it and its nested
                                         # code read (code objects do not change)


def _names_read(code):
    names = _NAMES.get(code)
    if names is None:
        names, todo = [], [code]
        while todo:
            part = todo.pop()
            todo.extend(k for k in part.co_consts if isinstance(k, types.CodeType))
            names.extend(part.co_names + part.co_freevars)
        names = _NAMES[code] = tuple(names)
    return names


def _user_function(value):
    return isinstance(value, types.FunctionType) and \
        (value.__module__ or "").split(".")[0] not in _NOT_USER
