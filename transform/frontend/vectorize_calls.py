"""Stage 1b, desugar: a call of np.vectorize(f) becomes the loop np.vectorize runs,
written in Python (runtime/vectorize_source.py) and compiled like a user's helper, so
the derivative reaches through each call of f:

    np.vectorize(f)(x)        ->  vectorized_1(f, "file.py:12", x)
    v = np.vectorize(f); v(x) ->  v = f; vectorized_1(v, "file.py:12", x)   (v only called)
    V(x, y)   (V = np.vectorize(f) a global, or `@np.vectorize def V`)
                              ->  vectorized_2(V.pyfunc, "file.py:12", x, y)

One to three positional arguments, and a vectorize made without otypes=, excluded=,
signature= or cache=; other forms are refused at the call (NumPy's own Python source is
never compiled in their place).
"""
import copy

import gast
import numpy as np

from runtime.vectorize_source import HELPERS
from ..ir.nodes import const, load as _load

_HINT = "call np.vectorize(f) on one to three arrays, positionally, without otypes=, " \
        "excluded=, signature= or cache=, or write the loop: " \
        "`np.array([f(t) for t in np.ravel(x)]).reshape(np.shape(x))`"


def _resolved(src, node):
    try:
        return src.resolve(node)
    except TypeError:                       # an unhashable callable
        return None


def _is_vectorize(src, node):
    return isinstance(node, gast.Call) and _resolved(src, node.func) is np.vectorize


def local_vectorized(src, s, stores, values):
    """`v = np.vectorize(f)` where v is bound once and only ever called: rewritten
    `v = f` in place; returns v's name, else None."""
    if not (isinstance(s, gast.Assign) and len(s.targets) == 1 and
            isinstance(s.targets[0], gast.Name) and _is_vectorize(src, s.value)):
        return None
    name = s.targets[0].id
    if stores.get(name) != 1 or name in values:
        return None
    s.value = _function_of(src, s.value)
    return name


def _function_of(src, made):
    if made.keywords or len(made.args) != 1 or isinstance(made.args[0], gast.Starred):
        raise src.error("this form of np.vectorize is not supported", made, hint=_HINT)
    return made.args[0]


def vectorized_call(src, call, local):
    """Rewrite `call` in place when it calls an np.vectorize (`local`: names bound to
    one by local_vectorized)."""
    func = call.func
    if _is_vectorize(src, func):
        function = _function_of(src, func)
    elif isinstance(func, gast.Name) and func.id in local:
        function = _load(func.id)
    else:
        made = _resolved(src, func) if isinstance(func, (gast.Name, gast.Attribute)) \
            else None
        if not isinstance(made, np.vectorize):
            return
        if made.otypes is not None or made.excluded or made.signature is not None or \
                made.cache:
            raise src.error("this form of np.vectorize is not supported", call, hint=_HINT)
        function = gast.Attribute(value=copy.deepcopy(func), attr="pyfunc", ctx=gast.Load())
    if call.keywords or not 1 <= len(call.args) <= len(HELPERS) or \
            any(isinstance(a, gast.Starred) for a in call.args):
        raise src.error("this call of np.vectorize is not supported", call, hint=_HINT)
    helper = HELPERS[len(call.args) - 1]
    name = _load(helper.__name__)
    name.runtime_helper = helper
    where = const(f"{src.filename}:{src.first_line + call.lineno - 1}")
    call.func = gast.copy_location(name, func)
    call.args = [function, where] + call.args


def is_vectorize(fn):
    """np.vectorize itself or one it made (desugar's scan for calls to rewrite)."""
    try:
        return fn is np.vectorize or isinstance(fn, np.vectorize)
    except TypeError:
        return False


__all__ = ["is_vectorize", "local_vectorized", "vectorized_call"]
