"""A `try`/`except` statement as a plain Python function that runs it as written.

    try:                                def try_block(c):         # the user's globals,
        val = 1.0 / c                       completed = False     # lines and file
    except ZeroDivisionError:     ->        try:
        val = 0.0                               val = 1.0 / c
                                            except ZeroDivisionError:
                                                val = 0.0
                                            else:
                                                completed = True
                                            return (val, completed)

The generated code calls it in the forward sweep, once, as the primal runs the
statement: no derivative flows through it (a value being differentiated given to it is
refused at the `try`, transform/analysis/reasons.py). An array, list or dict it is given
must come back unchanged (a helper called inside may write into it, where the backward
sweep would read it): checked after each call, a RuntimeError naming the user's line.
"""
import ast

import gast
import numpy as np


def block_function(src, try_node, inputs, outputs, flag, name):
    """The callable running `try_node` (a gast Try without else/finally) with the
    function's globals; takes `inputs` by position, returns `outputs` and `flag`
    (True when the try body completed) as a tuple."""
    where = f"{src.filename}:{src.first_line + try_node.lineno - 1}"
    body = [ast.Assign(targets=[ast.Name(id=flag, ctx=ast.Store())],
                       value=ast.Constant(value=False)),
            gast.gast_to_ast(try_node),
            ast.Return(value=ast.Tuple(elts=[ast.Name(id=n, ctx=ast.Load())
                                             for n in list(outputs) + [flag]],
                                       ctx=ast.Load()))]
    args = ast.arguments(posonlyargs=[], args=[ast.arg(arg=n) for n in inputs],
                         kwonlyargs=[], kw_defaults=[], defaults=[])
    fdef = ast.FunctionDef(name=name, args=args, body=body, decorator_list=[],
                           returns=None)
    if "type_params" in ast.FunctionDef._fields:
        fdef.type_params = []
    module = ast.Module(body=[fdef], type_ignores=[])
    for node in ast.walk(module):                 # the generated parts: at the `try`
        if "lineno" in node._attributes and getattr(node, "lineno", None) is None:
            node.lineno, node.col_offset = try_node.lineno, try_node.col_offset
            node.end_lineno, node.end_col_offset = try_node.lineno, try_node.col_offset
    ast.increment_lineno(module, src.first_line - 1)       # the file's own lines
    namespace = {}
    exec(compile(module, src.filename, "exec"), src.fn.__globals__, namespace)
    return _checked(namespace[name], inputs, where)


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
