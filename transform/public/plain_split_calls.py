"""A compiled callee of the plain lowering, split (docs/ir.md, "Second lowering", "Calls"):
`t, t_pullback = g_forward(a, b)` in the caller's forward sweep, `t_cots =
g_backward(dt, t_pullback)` in its backward sweep (reverse/plain_split.py makes the two
halves): the name the pullback had holds the callee's saved values, a tuple, and that
is what the caller keeps on its tape, not a closure.

A call is split only where the split is shown to be the callee's rule: a plain Python
function (not the caller, not one being compiled: recursion), called with its first
parameters, by position or by keyword (`split_arguments`: the forward half is called
with them by position, in the callee's order; a default after them fills the rest as
it does the rule's; no `*args`, no keyword-only parameters), whose two halves
compile with every saved name certainly bound at the cut, real arguments not checked at
run time, under the loop or eager policy. Anything else returns None and the caller
keeps the callee's rule and the pullback it returns (Compilation.rule_global).
"""
import inspect

from ..errors import TransformError
from ..ir.primitives import opaque_library
from .cache import compiling
from .parameters import _params

_SPLIT = []          # [transform.api.compiled_split], set by provide


def provide(compiled_split):
    """transform.api hands over its cached compile of a callee's two halves."""
    _SPLIT[:] = [compiled_split]


def split_callee(prim, caller, policy, varied, signature=None):
    """(forward, backward) Compiled halves of the callee `prim.fn`, or None; specialised
    to `signature` (the arguments' shapes at the call, as the caller's stage 5 knows
    them: a `signature_of`) where given."""
    fn = getattr(prim, "fn", None)
    if not _splittable(prim, fn, caller, policy):
        return None
    names = tuple(_params(fn, keyword_only=True))
    wrt = None if varied is None else tuple(names[k] for k in varied if k < len(names))
    try:
        halves = _SPLIT[0](fn, names, policy, wrt, signature)
    except (TransformError, TypeError, ValueError):     # the rule path says it, if at all
        return None
    if halves is None or any(getattr(h, "real_arguments", False) for h in halves):
        return None
    return halves


def split_arguments(fn, call):
    """The atoms of `call` in `fn`'s parameter order (the forward half takes them by
    position), or None: a keyword naming no parameter, or one after a parameter left to
    its default (`g(a, c=v)` with b's default), or `**kw`, keeps the rule."""
    code = getattr(fn, "__code__", None)
    if code is None or any(kw.arg is None for kw in call.keywords):
        return None
    names = code.co_varnames[:code.co_argcount]
    given = dict(zip(names, call.args))
    for kw in call.keywords:
        if kw.arg not in names[code.co_posonlyargcount:] or kw.arg in given:
            return None
        given[kw.arg] = kw.value
    if len(call.args) > len(names) or set(names[:len(given)]) != set(given):
        return None
    return [given[n] for n in names[:len(given)]]


def _splittable(prim, fn, caller, policy):
    if not _SPLIT or policy not in ("loop", "eager") or getattr(prim, "method", None) or \
            getattr(prim, "kind", None) == "custom" or not inspect.isfunction(fn):
        return False
    if fn is caller or fn in compiling() or opaque_library(fn) is not None:
        return False
    code = fn.__code__
    if code.co_kwonlyargcount or code.co_flags & (inspect.CO_VARARGS | inspect.CO_VARKEYWORDS):
        return False
    args = getattr(prim, "args", None) or []
    return not getattr(prim, "keywords", None) and len(args) == code.co_argcount and \
        not any(type(a).__name__ == "Starred" for a in args)
