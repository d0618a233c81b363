"""`try`/`finally` without handlers: the `finally` block also runs, once, when an
exception leaves the body, as in Python.

    try:                              finally_guard1 = finally_guard("loss.py:7:4")
        body                   ->     body
    finally:                          exit_context(finally_guard1)
        block                         block

The body and the block stay in place (the block differentiated as ordinary code after
the body, and before each `return`/`break`/`continue` that leaves it). The guard is
open while the body runs: if an exception leaves the function then, `close_since`
(runtime/contexts.py) runs the block's own code, compiled here from the user's source,
on the values the variables had when the exception left (no derivative: the exception
goes on). With handlers (the body and handlers run in a function of their own,
try_blocks.py) the guard is open around that call, when the block reads no name they
bind.
"""
import ast
import copy

import gast

from runtime.contexts import FINALLY_BLOCKS, exit_context, finally_guard

from ..ir.nodes import assign as _assign, load as _load, located as _at


def finally_on_error(src, s, new_name):
    """(the statement opening the guard, the one closing it) for the Try `s`."""
    fn = src.fn
    key = f"{fn.__module__}.{fn.__qualname__} {src.filename}:" \
          f"{src.first_line + s.lineno - 1}:{s.col_offset}"
    FINALLY_BLOCKS[key] = (_compiled_block(src, s.finalbody), fn.__globals__)
    guard = new_name("finally_guard")
    opened = _at(_assign(guard, _call(finally_guard, gast.Constant(value=key, kind=None))),
                 s)
    closed = _at(gast.Expr(value=_call(exit_context, _load(guard))), s)
    return opened, closed


def _call(helper, argument):
    func = _load(helper.__name__)
    func.runtime_helper = helper
    return gast.Call(func=func, args=[argument], keywords=[])


def _compiled_block(src, block):
    """The block's statements as Python code, at their lines in the user's file."""
    module = gast.gast_to_ast(gast.Module(body=copy.deepcopy(block), type_ignores=[]))
    ast.fix_missing_locations(module)
    ast.increment_lineno(module, src.first_line - 1)
    return compile(module, src.filename, "exec")


def reads_bound_inside(block, protected):
    """Whether `block` reads a name the statement `protected` (a body and its handlers,
    run in a function of their own) binds."""
    bound = {n.id for n in gast.walk(protected) if isinstance(n, gast.Name)
             and isinstance(n.ctx, (gast.Store, gast.Del))}
    bound |= {h.name for h in getattr(protected, "handlers", ()) if h.name}
    return any(isinstance(n, gast.Name) and n.id in bound
               for stmt in block for n in gast.walk(stmt))
