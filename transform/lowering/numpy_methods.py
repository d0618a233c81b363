"""Stage 3, normalize: `np.sum(obj)` where obj may be a user object. NumPy calls the
object's own method when its type is not ndarray and it has one (`obj.sum(axis=None,
out=None)`), with the keywords NumPy passes; so does the generated code, decided when
it runs (as receiver_kinds.py does for `obj.sum()`), where the source shows an object:

    t = np.sum(b)     ->  cond = has_own_method(b, "sum")
                          if cond: t = b.sum(axis=None, out=None)   (compiled from type(b).sum)
                          else:    t = np.sum(b)                    (np.sum's rule)

The keywords are NumPy's (numpy/_core/fromnumeric.py): sum and prod pass axis, dtype
when not None, out, and keepdims/initial/where when given; max and min axis, out and
those; mean axis, dtype, out, keepdims/where; std and var also ddof (and `mean=`).
"""
import inspect

import gast
import numpy as np

from ..ir.nodes import assign, const, load
from ..ir.primitives import Prim
from runtime.rules.own_methods_helpers import has_own_method
from .receiver_kinds import _static_value, may_be_object
from .receivers import _single_assignment

_NONE = object()
# np function: (method, keywords always passed (name, default), keywords passed when given)
_REDUCE = ("keepdims", "initial", "where")
TABLE = {np.sum: ("sum", ("axis", "dtype?", "out"), _REDUCE),
         np.prod: ("prod", ("axis", "dtype?", "out"), _REDUCE),
         np.max: ("max", ("axis", "out"), _REDUCE), np.min: ("min", ("axis", "out"), _REDUCE),
         np.mean: ("mean", ("axis", "dtype", "out"), ("keepdims", "where")),
         np.std: ("std", ("axis", "dtype", "out", "ddof"), ("keepdims", "where", "mean")),
         np.var: ("var", ("axis", "dtype", "out", "ddof"), ("keepdims", "where", "mean"))}
if hasattr(np, "amax"):
    TABLE.update({np.amax: TABLE[np.max], np.amin: TABLE[np.min]})


def numpy_method_of(src, e, fn):
    """(method name, [(keyword, expression)], the object's expression) when `e` calls a
    NumPy function that hands a non-array to its method and the source shows its first
    argument may be a user object (_shows_object); else None."""
    try:
        entry = TABLE.get(fn)
    except TypeError:                        # an unhashable callable
        return None
    if entry is None or not e.args or any(isinstance(a, gast.Starred) for a in e.args) or \
            any(kw.arg is None for kw in e.keywords) or not _shows_object(src, e.args[0]):
        return None
    try:
        bound = inspect.signature(fn).bind(*e.args, **{k.arg: k.value for k in e.keywords})
    except TypeError:
        return None                          # the rule's call refuses it as NumPy would
    given = dict(bound.arguments)
    method, always, when_given = entry
    obj, keywords = given.pop("a"), []
    for name in always:
        value = given.pop(name.rstrip("?"), _NONE)
        if name.endswith("?"):               # dtype: passed only when not None
            if value is _NONE or isinstance(value, gast.Constant) and value.value is None:
                continue
            if not isinstance(value, gast.Constant):
                return None                  # None or not: known only when it runs
        keywords.append((name.rstrip("?"), const(0 if name == "ddof" else None)
                         if value is _NONE else value))
    keywords += [(name, given.pop(name)) for name in when_given if name in given]
    return None if given else (method, keywords, obj)


def guard_argument_method(calls, e, fn):
    """`np.sum(b)`, b an argument the signature does not show is an array or number (a
    user object with its own `sum`, a complex number, a dict): NumPy calls `b.sum()`, which
    the rule does not follow (its backward sweep would fail away from the user's line).
    A guard refuses that at the user's line when it runs, if b is being differentiated
    (analysis/reasons.py turns it on):

        own_method_refused(b, "sum", "f.py:3:11", False)     np.sum's rule follows
    """
    try:
        entry = TABLE.get(fn)
    except TypeError:                        # an unhashable callable
        return
    node = e.args[0] if entry is not None and e.args else None
    if not isinstance(node, gast.Name) or node.id not in calls.src.params or \
            not may_be_object(calls.src, node):
        return
    where = f"{calls.norm.where(e)}:{e.col_offset + 1}"
    check = calls.names.call("own_method_refused", load(node.id), const(entry[0]),
                             const(where), const(False))
    prim = Prim("nondiff", "check")
    prim.guarded = node.id
    calls.norm.emit(gast.Expr(value=check), prim)


def _shows_object(src, node):
    """Whether the source shows `node` may be a user object: a call of a class written in
    Python, a local bound once to one, or a global object; other values (an argument, a
    loop's item, what a helper returns) get the rule, as before."""
    if not may_be_object(src, node):
        return False
    if isinstance(node, gast.Call):
        return _python_class(src, node.func)
    if isinstance(node, gast.Name) and node.id in src.params:
        return False      # (a complex number, a dict, a long list: the signature says None)
    if isinstance(node, gast.Name) and node.id in src.locals:
        value = _single_assignment(src.node, node.id)
        return isinstance(value, gast.Call) and _python_class(src, value.func)
    static = _static_value(src, node)
    return static is not None and not isinstance(static, type) and \
        any(has_own_method(static, m) for m, *_ in TABLE.values())


def _python_class(src, func):
    try:
        cls = src.resolve(func)
    except TypeError:
        return False
    module = getattr(cls, "__module__", "") or ""
    return isinstance(cls, type) and module.split(".")[0] not in ("builtins", "numpy", "scipy")


def dispatch_numpy_method(calls, e, func, fn, target):
    """Emit the dispatch the module docstring shows; returns the target."""
    method, keywords, obj = numpy_method_of(calls.src, e, fn)
    norm, names = calls.norm, calls.names
    target = target or names.new("t")
    base = norm.atom(obj)
    cond = names.new("cond")
    norm.emit(assign(cond, names.call("has_own_method", base, const(method))),
              Prim("nondiff", "test"))

    def own():
        atoms = {k: norm.atom(v) for k, v in keywords}
        node = gast.Call(func=gast.Attribute(value=base, attr=method, ctx=gast.Load()),
                         args=[], keywords=[gast.keyword(arg=k, value=v)
                                            for k, v in atoms.items()])
        calls.user_method(gast.copy_location(node, e), node, base, [], atoms, target, False)

    rest = [a for a in e.args[1:]] if e.args[0] is obj else None
    call = gast.copy_location(gast.Call(func=func, args=[base] + rest, keywords=e.keywords)
                              if rest is not None else e, e)
    mine = norm.block_of(own)
    rule = norm.block_of(lambda: calls.rule_call(call, func, fn, target, False))
    norm.emit(gast.If(test=load(cond), body=mine, orelse=rule))
    return target


__all__ = ["dispatch_numpy_method", "guard_argument_method", "numpy_method_of"]
