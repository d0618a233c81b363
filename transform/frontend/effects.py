"""Whether code prints (or logs, or warns): the order of output a generator helper's
list would change (generators.py).

    def steps(x):                       for v in steps(x):
        for k in range(2):                  print("got", v)
            print("making", k)
            yield x * k

Python prints making 0, got 0, making 1, got 1; a list built first would print
making 0, making 1, got 0, got 1. When both the generator and the loop's body may print,
the generator is written into the loop (inline_generators.py), or the loop is refused
(generators.py); when only one side prints, the order is Python's either way.
A user function called on either side is read (a few levels deep) for the same calls.
"""
import ast
import builtins
import inspect
import logging
import sys
import textwrap
import warnings

import gast

_DEPTH = 4


def may_print_nodes(nodes, resolve, depth=_DEPTH):
    """Whether any Call among `nodes` (gast) prints, logs or warns, or calls a user
    function that may; `resolve(func_node)` gives the object a callee denotes."""
    for node in nodes:
        if isinstance(node, gast.Call):
            fn = resolve(node.func)
            if _prints(fn) or _user_function(fn) and function_may_print(fn, depth - 1):
                return True
    return False


def function_may_print(fn, depth=_DEPTH):
    """Whether the Python function `fn` may print, log or warn (read from its source)."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    except (OSError, TypeError, SyntaxError):
        return False
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            callee = _resolve_ast(node.func, fn)
            if _prints(callee) or _user_function(callee) and depth > 0 and \
                    function_may_print(callee, depth - 1):
                return True
    return False


def _resolve_ast(func, fn):
    path = []
    while isinstance(func, ast.Attribute):
        path.append(func.attr)
        func = func.value
    if not isinstance(func, ast.Name):
        return None
    value = fn.__globals__.get(func.id, getattr(builtins, func.id, None))
    for attr in reversed(path):
        value = getattr(value, attr, None)
    return value


def _prints(fn):
    if fn is None:
        return False
    if fn is print or fn is warnings.warn:
        return True
    owner = getattr(fn, "__self__", None)
    if isinstance(owner, logging.Logger) or owner in (sys.stdout, sys.stderr):
        return True
    return getattr(fn, "__module__", None) == "logging" and callable(fn)


def _user_function(fn):
    return inspect.isfunction(fn) and \
        not (fn.__module__ or "").startswith(("numpy", "scipy", "logging", "warnings"))
