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
import numpy as np

_DEPTH = 4


def may_print_nodes(nodes, resolve, depth=_DEPTH):
    """Whether any Call among `nodes` (gast) prints, logs or warns, or calls a user
    function, class or callable object that may, or a callable the check cannot see
    into (a local name: a lambda, a nested def, an object); a `with` item whose
    manager's `__enter__`/`__exit__` may. `resolve(func_node)` gives the object a
    callee denotes."""
    for node in nodes:
        if isinstance(node, gast.Call):
            fn = resolve(node.func)
            if fn is None and not _plain_method(node.func) or \
                    fn is not None and callee_may_print(fn, depth):
                return True
        elif isinstance(node, gast.withitem) and \
                _manager_may_print(node.context_expr, resolve, depth):
            return True
    return False


def callee_may_print(fn, depth=_DEPTH, methods=("__init__", "__post_init__")):
    """Whether calling `fn` may print: a printing function, a user function (read from
    its source), a user class whose `methods` may, or an object whose `__call__` may."""
    if _prints(fn):
        return True
    if depth <= 0:
        return False
    if isinstance(fn, type):
        found = [getattr(fn, m, None) for m in methods]
    elif _user_function(fn) or _user_function(getattr(fn, "__func__", None)):
        found = [getattr(fn, "__func__", fn)]
    else:
        found = [getattr(type(fn), "__call__", None)] if callable(fn) else []
    return any(_user_function(m) and function_may_print(m, depth - 1) for m in found)


def _manager_may_print(expr, resolve, depth):
    """`with make(...):` -> whether make's class's __enter__ or __exit__ may print."""
    fn = resolve(expr.func) if isinstance(expr, gast.Call) else resolve(expr)
    if fn is None:
        return True                            # cannot see the manager: be safe
    if isinstance(fn, type):
        return callee_may_print(fn, depth, ("__init__", "__enter__", "__exit__"))
    if _user_function(fn):                     # @contextmanager: its generator's source
        return function_may_print(getattr(fn, "__wrapped__", fn), depth - 1)
    return callee_may_print(type(fn), depth, ("__enter__", "__exit__"))


def _plain_method(func):
    """`xs.append(v)`, `a.sum()`: a method NumPy arrays, lists or dicts have (which
    do not print), called on a local object."""
    return isinstance(func, gast.Attribute) and \
        any(hasattr(kind, func.attr) for kind in (np.ndarray, list, dict))


def function_may_print(fn, depth=_DEPTH):
    """Whether the Python function `fn` may print, log or warn (read from its source),
    through the functions, classes and context managers it uses."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    except (OSError, TypeError, SyntaxError):
        return False
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            callee = _resolve_ast(node.func, fn)
            if callee is not None and (_prints(callee) or depth > 0 and
                                       callee_may_print(callee, depth)):
                return True
        elif isinstance(node, ast.withitem) and depth > 0:
            expr = node.context_expr
            manager = _resolve_ast(expr.func if isinstance(expr, ast.Call) else expr, fn)
            if isinstance(manager, type) and callee_may_print(
                    manager, depth, ("__init__", "__enter__", "__exit__")):
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
