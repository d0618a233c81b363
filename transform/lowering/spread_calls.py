"""Stage 3, normalize: `f(*xs)` where the source does not fix the length of xs (a
parameter, a list grown by `append`, a comprehension): the call becomes a call of a
value, `spread_call(f, xs)`, which generated code dispatches when it runs, when the
entries are known, to f's compiled rule (runtime/spread.py). `*xs` whose length the
source fixes was spread before (frontend/starred_calls.py); `*shape` given to calls no
derivative flows through (`np.zeros(*shape)`, `rng.normal(size=...)`) stays as written.

    y = f(a, *xs, k=v)   ->   y = spread_call(f, [a, *xs], k=v)
"""
import dataclasses
import inspect

import gast

import runtime
from runtime.spread import spread_call, spread_keywords

from ..ir.primitives import rule_for
from .receivers import random_method

# what to write instead of `*xs`/`**params` where they cannot be spread (normalize_calls)
STARRED_INSTEAD = {
    "*": "unpack first (`a, b = xs`, then `f(a, b)`), or build `xs` once in this function "
         "as a tuple or list display (`xs = (a, b)`) that is only indexed afterwards",
    "**": "pass the keywords one by one (`f(w=params[\"w\"])`), or build `params` once "
          "in this function as a dict display with string keys that is only read",
}


def spread_call_of(src, names, e, fn):
    """The call written as `spread_call(...)` or `spread_keywords(...)`, or None when e
    is not such a call."""
    if [kw.arg for kw in e.keywords] == [None] and _compiled_callee(src, e, fn):
        return _keywords_call(names, e)
    if not any(isinstance(a, gast.Starred) for a in e.args) or \
            any(kw.arg is None for kw in e.keywords) or not _compiled_callee(src, e, fn):
        return None
    starred = [a for a in e.args if isinstance(a, gast.Starred)]
    if len(e.args) == 1:
        entries = starred[0].value               # f(*xs): xs itself
    else:
        entries = gast.List(elts=list(e.args), ctx=gast.Load())
    names.objects.setdefault("spread_call", spread_call)
    func = names.ref("spread_call")              # the compiler's own name for it
    call = gast.Call(func=func, args=[e.func, entries], keywords=list(e.keywords))
    return gast.copy_location(call, e)


def _record_class(fn):
    """A NamedTuple or dataclass class (`Params(*np.exp(theta))`): called as a value."""
    return inspect.isclass(fn) and rule_for(fn) is None and (
        issubclass(fn, tuple) and hasattr(fn, "_fields") or dataclasses.is_dataclass(fn))


def _keywords_call(names, e):
    """`f(a, **params)` -> `spread_keywords(f, [a], params)` (runtime/spread.py)."""
    names.objects.setdefault("spread_keywords", spread_keywords)
    entries = gast.List(elts=list(e.args), ctx=gast.Load())
    call = gast.Call(func=names.ref("spread_keywords"),
                     args=[e.func, entries, e.keywords[0].value], keywords=[])
    return gast.copy_location(call, e)


def _compiled_callee(src, e, fn):
    """Whether the call reaches a function the compiler differentiates from its source
    (a user function, a function value, a method of an object)."""
    if fn is not None:
        return inspect.isfunction(fn) and rule_for(fn) is None or \
            inspect.ismethod(fn) and inspect.isfunction(fn.__func__) or _record_class(fn)
    if isinstance(e.func, gast.Name):
        return e.func.id in src.locals or e.func.id in src.params
    if isinstance(e.func, gast.Attribute):
        return runtime.method_function(e.func.attr) is None and \
            random_method(src, e.func.value, e.func.attr) is None
    return False
