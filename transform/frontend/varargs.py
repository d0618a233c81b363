"""Stage 1, parse: a helper's `*args` given a fixed number of values, as named parameters.

A call site fixes how many values a helper's `*args` receives; the helper is compiled
for that count, its pullback answering for each of them:

    def total(*xs):                          def total(xs_0, xs_1):      (compiled)
        return sum(xs)           ->              xs = (xs_0, xs_1)
                                                 return sum(xs)
    total(a * w, b)

The stand-in is a function with the helper's own code (called as written, it runs the
helper), marked `thunkgrad_varargs` with the count and given the named signature;
parse_function rewrites its tree (`named_varargs`).
"""
import inspect
import types
import weakref

import gast

_MADE = weakref.WeakKeyDictionary()       # helper -> {count: stand-in}


def takes_varargs(fn):
    """Whether `fn` is a plain Python function with a `*args` parameter (not already
    a stand-in)."""
    return inspect.isfunction(fn) and bool(fn.__code__.co_flags & inspect.CO_VARARGS) \
        and getattr(fn, "thunkgrad_varargs", None) is None and \
        not getattr(fn, "thunkgrad_parse_as", None)       # method_writes.py's stand-in


def with_varargs(fn, given):
    """The function to compile for a call of fn with `given` positional values: its
    stand-in when some of them land in its `*args`, else fn itself."""
    count = given - fn.__code__.co_argcount if takes_varargs(fn) else 0
    return varargs_variant(fn, count) if count > 0 else fn


def named_callee(fn, given):
    """Forward mode's callee for a call of fn with `given` positional values: a helper
    taking `*args` as its stand-in for the values `*args` gets (none, when the call
    fills only the named parameters), else fn itself. A `@differentiable` helper: the
    function it wraps (its wrapper takes `*args, **kwargs`; forward mode has no policy)."""
    while getattr(fn, "thunkgrad_policy", None) is not None and hasattr(fn, "__wrapped__"):
        fn = fn.__wrapped__
    if takes_varargs(fn) and given >= fn.__code__.co_argcount:
        return varargs_variant(fn, given - fn.__code__.co_argcount)
    return fn


def varargs_variant(fn, count):
    """fn compiled with `count` values in its `*args` (one stand-in per fn and count)."""
    made = _MADE.setdefault(fn, {})
    if count not in made:
        made[count] = _stand_in(fn, count)
    return made[count]


def _stand_in(fn, count):
    stand_in = types.FunctionType(fn.__code__, fn.__globals__, fn.__name__,
                                  fn.__defaults__, fn.__closure__)
    stand_in.__kwdefaults__ = fn.__kwdefaults__
    stand_in.__qualname__, stand_in.__module__ = fn.__qualname__, fn.__module__
    names = _entry_names(fn, count)
    stand_in.__signature__ = _signature(fn, names)
    stand_in.thunkgrad_varargs = names
    return stand_in


def _entry_names(fn, count):
    """`xs_0`, `xs_1`, ...: names no other variable of fn uses."""
    code = fn.__code__
    star = code.co_varnames[code.co_argcount + code.co_kwonlyargcount]
    taken = set(code.co_varnames) | set(code.co_names) | set(code.co_freevars)
    suffix = ""
    while any(f"{star}_{k}{suffix}" in taken for k in range(count)):
        suffix += "_"
    return tuple(f"{star}_{k}{suffix}" for k in range(count))


def _signature(fn, names):
    """fn's signature with `*args` as positional parameters `names` (every positional
    parameter before them is given at the call, so their defaults are dropped)."""
    params = []
    for p in inspect.signature(fn, follow_wrapped=False).parameters.values():
        if p.kind is p.VAR_POSITIONAL:
            params += [inspect.Parameter(n, p.POSITIONAL_OR_KEYWORD) for n in names]
        elif p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            params.append(p.replace(kind=p.POSITIONAL_OR_KEYWORD, default=p.empty))
        else:
            params.append(p)
    return inspect.Signature(params)


def named_varargs(node, names):
    """Rewrite the FunctionDef: `*xs` becomes the parameters `names`, and the body
    starts with `xs = (xs_0, xs_1, ...)`."""
    args, star = node.args, node.args.vararg
    args.args = args.posonlyargs + args.args + [
        gast.copy_location(gast.Name(id=n, ctx=gast.Param(), annotation=None,
                                     type_comment=None), star) for n in names]
    args.posonlyargs, args.defaults, args.vararg = [], [], None
    entries = gast.Tuple(elts=[gast.Name(id=n, ctx=gast.Load(), annotation=None,
                                         type_comment=None) for n in names],
                         ctx=gast.Load())
    bind = gast.Assign(targets=[gast.Name(id=star.id, ctx=gast.Store(), annotation=None,
                                          type_comment=None)],
                       value=entries, type_comment=None)
    for part in gast.walk(bind):
        gast.copy_location(part, star)
    node.body.insert(0, bind)
