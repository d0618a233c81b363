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
"""
import types

from .errors import TransformError, at_definition

_NOT_USER = ("runtime", "transform", "numpy", "scipy", "builtins")


def refuse_recursion(plain):
    """TransformError at plain's `def` when a call from plain reaches a cycle of calls."""
    cycle = _cycle(plain, [], set())
    if cycle is None:
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
    for callee in _callees(fn):
        found = _cycle(callee, path, done)
        if found is not None:
            return found
    path.pop()
    done.add(fn)
    return None


def _callees(fn):
    """The user's functions fn's code names (globals, closure cells; nested code too)."""
    found, todo = [], [fn.__code__]
    cells = {name: cell.cell_contents for name, cell in
             zip(fn.__code__.co_freevars, fn.__closure__ or ()) if _filled(cell)}
    while todo:
        code = todo.pop()
        todo.extend(k for k in code.co_consts if isinstance(k, types.CodeType))
        for name in code.co_names + code.co_freevars:
            value = cells.get(name, fn.__globals__.get(name))
            if _user_function(value) and value not in found:
                found.append(value)
    return found


def _filled(cell):
    try:
        cell.cell_contents
    except ValueError:
        return False
    return True


def _user_function(value):
    return isinstance(value, types.FunctionType) and \
        (value.__module__ or "").split(".")[0] not in _NOT_USER
