"""`try` statements: handlers run as written, in a function no derivative flows through.

    try:                                 val, completed = try_block(c)
        val = 1.0 / c                    if completed:
    except ZeroDivisionError:     ->         y = x * val
        val = 0.0                        print("done")
    else:
        y = x * val
    finally:
        print("done")

The body and its handlers become one call (block_function.py) returning the names
they bind that the function reads later: Python's own try/except runs, so whatever
the body raises midway, what ran is what the primal ran. A value being differentiated
given to that call is refused at the `try` (the reasons check): the gradient cannot
follow a value that may or may not have been computed. The `else` block runs after
the call when the body completed, and the `finally` block after both, as ordinary
differentiated code (run before each return/break/continue of `else`, as exits.py
does for `with`). `try`/`finally` without handlers keeps its body in place.

Refused at the user's line: return/break/continue/yield inside the body or a handler,
`global`, writes into items or attributes of values from outside, a name read inside
but bound only after the statement, and a name the function reads later that the
statement may leave unbound. Like a `with` block's `__exit__`, the `finally` block
does not run when an exception leaves the function.
"""
import gast

from ..ir.nodes import load as _load, located as _at, store as _store
from .block_function import block_function
from .exits import exit_before_jumps
from .generators import WRITING_METHODS, own_nodes
from .try_scope import TryScope, definitely_bound


def try_statement(src, fdef, s, new_name):
    """The statements replacing the Try `s` of `fdef` (to be desugared further)."""
    for block in [s.finalbody] + ([s.body] if s.handlers else []) + \
            [h.body for h in s.handlers]:
        _refuse_jumps(src, block)
    if not s.handlers:                                  # try/finally
        return exit_before_jumps(s.body, s.finalbody, new_name) + s.finalbody
    protected = gast.Try(body=s.body, handlers=s.handlers, orelse=[], finalbody=[])
    _at(protected, s)
    scope = TryScope(src, fdef, s, protected)
    inputs, outputs = _interface(src, scope, protected)
    _refuse_writes(src, protected, inputs)
    flag = new_name("completed")
    protected.orelse = [_at(gast.Assign(targets=[_store(flag)],
                                        value=gast.Constant(value=True, kind=None),
                                        type_comment=None), s)]
    name = new_name("try_block")
    fn = block_function(src, protected, inputs, outputs, flag, name)
    return [_call_statement(s, fn, name, inputs, outputs + [flag])] + \
        _after(s, flag, new_name)


def _interface(src, scope, protected):
    """(inputs, outputs): the names the call takes and returns, sorted."""
    written, loaded = scope.written(protected), scope.loaded(protected)
    available = scope.available()
    for n in sorted(loaded):
        if n not in available and n in scope.bound_outside and n not in written:
            raise src.error(f"`{n}` is read inside this try statement but assigned only "
                            "after it", scope.node,
                            hint=f"assign `{n}` before the try statement")
    definite = definitely_bound(protected.body)
    for handler in protected.handlers:
        definite &= definitely_bound(handler.body)
    outputs = sorted(n for n in written if n in scope.loaded_outside or
                     n in loaded and n in available)
    for n in outputs:
        if n not in definite and n not in available:
            raise src.error(f"`{n}` may be left unbound by this try statement (a handler "
                            "or an exception may skip its assignment) and is read later",
                            scope.node, hint=f"assign `{n}` before the try statement, or "
                                             "in the body and in every handler")
    needed = (loaded | {n for n in outputs if n not in definite}) & available
    return sorted(needed), outputs


def _call_statement(s, fn, name, inputs, results):
    func = _load(name)
    func.runtime_helper = fn
    call = gast.Call(func=func, args=[_load(n) for n in inputs], keywords=[])
    target = gast.Tuple(elts=[_store(n) for n in results], ctx=gast.Store())
    return _at(gast.Assign(targets=[target], value=call, type_comment=None), s)


def _after(s, flag, new_name):
    """`if completed: <else>` (the finally block before its jumps), then the finally."""
    out = []
    if s.orelse:
        orelse = exit_before_jumps(s.orelse, s.finalbody, new_name) if s.finalbody \
            else s.orelse
        out.append(_at(gast.If(test=_load(flag), body=orelse, orelse=[]), s))
    return out + s.finalbody


def _refuse_jumps(src, block):
    for node in own_nodes(block):
        if isinstance(node, (gast.Return, gast.Yield, gast.YieldFrom, gast.Global,
                             gast.Nonlocal)):
            what = type(node).__name__.lower().replace("yieldfrom", "yield from")
            raise src.error(f"`{what}` inside a try statement's body, handler or finally "
                            "block is not supported", node, hint=_JUMP_HINT)
    for node in own_nodes(block, loops_own_jumps=True):
        if isinstance(node, (gast.Break, gast.Continue)):
            raise src.error("`break`/`continue` leaving a try statement's body, handler "
                            "or finally block is not supported", node, hint=_JUMP_HINT)


_JUMP_HINT = "set a flag inside the try statement and return, break or continue after it"


def _refuse_writes(src, protected, inputs):
    """Writes into items or attributes of a value the statement is given."""
    for node in own_nodes([protected]):
        base = None
        if isinstance(node, (gast.Subscript, gast.Attribute)) and \
                isinstance(node.ctx, (gast.Store, gast.Del)):
            base = _root(node)
        elif isinstance(node, gast.Call) and isinstance(node.func, gast.Attribute) and \
                node.func.attr in WRITING_METHODS:
            base = _root(node.func.value)
        if base in inputs:
            raise src.error(f"writing into `{base}` inside a try statement is not "
                            "supported: the gradient cannot follow writes that may or may "
                            "not have happened", node,
                            hint=f"write into a copy (`{base}_new = {base}.copy()`) inside "
                                 "the try statement")


def _root(node):
    while isinstance(node, (gast.Subscript, gast.Attribute)):
        node = node.value
    return node.id if isinstance(node, gast.Name) else None
