"""A `try`/`except` statement as a plain Python function that runs it as written.

    try:                                def try_block(c, pack=<packs the results>):
        val = 1.0 / c                       completed = False
    except ZeroDivisionError:     ->        try:
        val = 0.0                               val = 1.0 / c
                                            except ZeroDivisionError:
                                                val = 0.0
                                            else:
                                                completed = True
                                            return pack(locals(), completed, 0)

It has the user's globals, file and line numbers (a traceback shows the user's line).
It returns each output's value (None if unbound) and whether it is bound, then whether
the body completed and which jump left the statement: a `break` or `continue` in the
body or a handler becomes `return pack(locals(), False, 1)` (or 2), so the caller
rebinds what the statement bound so far and then jumps, as Python would.

The generated code calls it in the forward sweep, once, as the primal runs the
statement: no derivative flows through it (a value being differentiated it reads is
refused at the `try`, transform/analysis/reasons.py). An array, list or dict it is
given must come back unchanged (a helper called inside may write into it, where the
backward sweep would read it): checked after each call, a RuntimeError naming the
user's line.
"""
import ast

import gast
import numpy as np

BREAK, CONTINUE = 1, 2


def block_function(src, try_node, inputs, outputs, names):
    """The callable running `try_node` (a gast Try without else/finally whose leaving
    jumps are already `return packed(...)`, see `packed`) with the function's globals;
    takes `inputs` by position, returns `outputs` = (names, those returned with whether
    they are bound) as `pack` lays them out. names: (the completed flag, the packer's parameter, the
    function's name), none of them the user's."""
    flag, pack, name = names
    where = f"{src.filename}:{src.first_line + try_node.lineno - 1}"
    body = [gast.Assign(targets=[_name(flag, gast.Store)],
                        value=gast.Constant(value=False, kind=None), type_comment=None),
            try_node, gast.Return(value=packed(pack, _name(flag), 0))]
    args = ast.arguments(posonlyargs=[], args=[ast.arg(arg=n) for n in inputs + [pack]],
                         kwonlyargs=[], kw_defaults=[], defaults=[])
    fdef = ast.FunctionDef(name=name, args=args, body=[gast.gast_to_ast(s) for s in body],
                           decorator_list=[], returns=None)
    if "type_params" in ast.FunctionDef._fields:
        fdef.type_params = []
    run = _compiled(src, fdef, try_node)
    run.__defaults__ = (_packer(outputs),)
    return _checked(run, inputs, where)


def packed(pack, completed, jump):
    """`pack(locals(), completed, jump)` (gast): the block's results."""
    found = gast.Call(func=_name("locals"), args=[], keywords=[])
    return gast.Call(func=_name(pack), args=[found, completed,
                                             gast.Constant(value=jump, kind=None)],
                     keywords=[])


def _name(name, ctx=gast.Load):
    return gast.Name(id=name, ctx=ctx(), annotation=None, type_comment=None)


def _compiled(src, fdef, where):
    module = ast.Module(body=[fdef], type_ignores=[])
    for node in ast.walk(module):                 # the generated parts: at the `try`
        if "lineno" in node._attributes and getattr(node, "lineno", None) is None:
            node.lineno, node.col_offset = where.lineno, where.col_offset
            node.end_lineno, node.end_col_offset = where.lineno, where.col_offset
    ast.increment_lineno(module, src.first_line - 1)       # the file's own lines
    namespace = {}
    exec(compile(module, src.filename, "exec"), src.fn.__globals__, namespace)
    return namespace[fdef.name]


def _packer(outputs):
    names, conditional = outputs
    def pack(found, completed, jump):
        return tuple(found.get(n) for n in names) + \
            tuple(n in found for n in conditional) + (completed, jump)
    return pack


def _checked(run, inputs, where):
    """`run`, refusing at run time a write into an array, list or dict it was given."""
    def block(*args):
        before = [_snapshot(a) for a in args]
        result = run(*args)
        for name, arg, old in zip(inputs, args, before):
            if old is not None and not _unchanged(arg, old):
                raise RuntimeError(
                    f"{where}: the try statement changed `{name}` in place; the gradient "
                    "cannot follow writes made inside a try statement. Instead: write "
                    "into a copy inside the try and assign it to a new name")
        return result
    block.thunkgrad_block = where
    block.__name__ = block.__qualname__ = run.__name__
    return block


def _snapshot(value):
    if isinstance(value, np.ndarray):
        return value.copy()
    if isinstance(value, (list, dict)):
        return (type(value), list(value.items()) if isinstance(value, dict) else list(value))
    return None


def _unchanged(value, old):
    if isinstance(value, np.ndarray):
        return value.shape == old.shape and np.array_equal(
            value, old, equal_nan=value.dtype.kind in "fc")
    now = list(value.items()) if isinstance(value, dict) else list(value)
    return len(now) == len(old[1]) and all(
        _same(a, b) for a, b in zip(now, old[1]))


def _same(a, b):
    if isinstance(a, tuple) and isinstance(b, tuple):        # dict items
        return a[0] == b[0] and a[1] is b[1]
    return a is b
