"""Stage 1b, desugar: a nested def's keyword-only parameters become named ones at the
end when every use of the def is a call that fills them by keyword (never by position),
so the inlining and closure stages, which take named parameters, can handle it:

    def inner(y, *, scale=1.0): ...     ->   def inner(y, scale=1.0): ...
    inner(x, scale=3.0)                       inner(x, scale=3.0)        (unchanged)

A call with more positional arguments than the named parameters (Python's TypeError),
`*xs` in a call, a use as a value, `*args`/`**kwargs`, or a required keyword-only
parameter after a default leave the def as written (check.py refuses it).
"""
import gast

from ..ir.nodes import walk


def keywords_as_named(fdef, nested):
    """Rewrite `nested` (a def inside `fdef`) in place when that keeps its meaning."""
    args = nested.args
    if not args.kwonlyargs or args.vararg or args.kwarg or args.posonlyargs or \
            nested.decorator_list or not _called_by_keyword(fdef, nested):
        return
    defaults = list(args.kw_defaults)
    required = [d is None for d in defaults]
    if required != sorted(required, reverse=True) or \
            any(required) and args.defaults:         # a required one after a default
        return
    args.args = args.args + args.kwonlyargs
    args.defaults = args.defaults + [d for d in defaults if d is not None]
    args.kwonlyargs, args.kw_defaults = [], []


def _called_by_keyword(fdef, nested):
    """Whether every occurrence of nested's name in fdef is a call passing at most its
    named parameters by position (no `*xs`)."""
    limit, name = len(nested.args.args), nested.name
    calls = [n for n in walk(fdef) if isinstance(n, gast.Call) and
             isinstance(n.func, gast.Name) and n.func.id == name]
    if any(len(c.args) > limit or any(isinstance(a, gast.Starred) for a in c.args)
           for c in calls):
        return False
    called = {id(c.func) for c in calls}
    loads = [n for n in walk(fdef) if isinstance(n, gast.Name) and n.id == name and
             isinstance(n.ctx, gast.Load)]
    return all(id(n) in called for n in loads)
