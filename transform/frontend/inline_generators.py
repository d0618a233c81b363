"""A generator helper walked by a loop, where both print: the generator's body is
written into the loop, so their lines interleave as in Python.

    def steps(x):                       steps_x = x
        for k in range(2):              for steps_k in range(2):
            print("making", k)    ->        print("making", steps_k)
            yield x * k                     v = steps_x * steps_k
                                            print("got", v)
    for v in steps(x):
        print("got", v)

Only where that is plainly the same program: the generator is a module-level function
of the same module (its names mean the same here) with positional parameters and
constant defaults, yields as statements, and `return` only outside its loops (it
becomes a `break` of a one-trip loop around it); a `continue` of the loop's body
becomes a `break` of a one-trip loop around the copy at each yield. Anywhere else the
list-building path and its refusal (generators.py) stay.
"""
import copy
import inspect

import gast

from ..ir.nodes import assign as _assign, load as _load, located as _at, renamed, store, \
    walk
from .effects import function_may_print, may_print_nodes
from .generators import own_nodes, runs_to_the_end
from .parse import parse_function


def inline_printing_generators(src, new_name, node=None):
    """Rewrite, in place, each such loop in the function's statement lists."""
    node = src.node if node is None else node
    for field in ("body", "orelse", "finalbody"):
        block = getattr(node, field, None)
        if not isinstance(block, list):
            continue
        out = []
        for s in block:
            if not isinstance(s, (gast.FunctionDef, gast.ClassDef)):
                inline_printing_generators(src, new_name, s)
            inlined = _inlined(src, s, new_name) if isinstance(s, gast.For) else None
            out.extend(inlined or [s])
        setattr(node, field, out)
    for handler in getattr(node, "handlers", ()):
        inline_printing_generators(src, new_name, handler)


def _inlined(src, loop, new_name):
    call = loop.iter
    fn = src.resolve(call.func) if isinstance(call, gast.Call) else None
    if not (inspect.isgeneratorfunction(fn) and runs_to_the_end(loop) and
            function_may_print(fn) and may_print_nodes(own_nodes(loop.body), src.resolve)):
        return None
    gen = _inlinable(src, fn, call)
    if gen is None:
        return None
    params = [a.id for a in gen.args.args]
    bound = set(params) | {n.id for n in walk(gen) if isinstance(n, gast.Name)
                           and not isinstance(n.ctx, gast.Load)}
    renames = {n: _load(new_name(f"{gen.name}_{n}")) for n in sorted(bound)}
    body = [renamed(s, renames) for s in gen.body]
    body = _yields_replaced(body, loop, new_name)
    if _has_return(body):
        body = [_once(new_name, _swapped(body, gast.Return, gast.Break))]
    values = _arguments(gen, call)
    binds = [_assign(renames[p].id, v) for p, v in zip(params, values)]
    out = binds + body + loop.orelse
    for s in out:
        for n in walk(s):
            if "lineno" in n._attributes:
                gast.copy_location(n, loop)       # errors point at the user's `for`
    return out


def _inlinable(src, fn, call):
    """The generator's FunctionDef (gast) when it can be written into the loop."""
    if fn.__globals__ is not src.fn.__globals__ or fn.__closure__ or \
            src.resolve(_load("range")) is not range:
        return None
    if any(isinstance(a, gast.Starred) for a in call.args) or \
            any(k.arg is None for k in call.keywords):
        return None
    gen = parse_function(fn).node
    args = gen.args
    if args.vararg or args.kwarg or args.kwonlyargs or args.posonlyargs or \
            not all(isinstance(d, gast.Constant) for d in args.defaults):
        return None
    for node in own_nodes(gen.body):
        if isinstance(node, (gast.Yield, gast.YieldFrom)) and not _statement_yield(gen, node):
            return None
        if isinstance(node, (gast.Global, gast.Nonlocal, gast.Try, gast.FunctionDef,
                             gast.ClassDef, gast.Lambda)):
            return None
    if any(isinstance(n, gast.Return) for loop_ in own_nodes(gen.body)
           if isinstance(loop_, (gast.For, gast.While)) for n in own_nodes(loop_.body)):
        return None
    try:
        inspect.signature(fn).bind(*call.args, **{k.arg: k.value for k in call.keywords})
    except TypeError:
        return None
    return gen


def _statement_yield(gen, node):
    return any(isinstance(s, gast.Expr) and s.value is node for s in own_nodes(gen.body))


def _arguments(gen, call):
    params = [a.id for a in gen.args.args]
    given = dict(zip(params, call.args))
    given.update({k.arg: k.value for k in call.keywords})
    defaults = dict(zip(params[len(params) - len(gen.args.defaults):], gen.args.defaults))
    return [given[p] if p in given else copy.deepcopy(defaults[p]) for p in params]


def _yields_replaced(stmts, loop, new_name):
    out = []
    for s in stmts:
        if isinstance(s, gast.Expr) and isinstance(s.value, gast.Yield):
            value = s.value.value or gast.Constant(value=None, kind=None)
            out.append(_at(gast.Assign(targets=[copy.deepcopy(loop.target)], value=value,
                                       type_comment=None), s))
            out.extend(_consumer_body(loop, new_name))
            continue
        if isinstance(s, gast.Expr) and isinstance(s.value, gast.YieldFrom):
            out.append(_at(gast.For(target=copy.deepcopy(loop.target), iter=s.value.value,
                                    body=copy.deepcopy(loop.body), orelse=[],
                                    type_comment=None), s))
            continue
        if not isinstance(s, (gast.FunctionDef, gast.ClassDef)):
            for field in ("body", "orelse", "finalbody"):
                block = getattr(s, field, None)
                if isinstance(block, list):
                    setattr(s, field, _yields_replaced(block, loop, new_name))
        out.append(s)
    return out


def _consumer_body(loop, new_name):
    body = copy.deepcopy(loop.body)
    if not any(isinstance(n, gast.Continue) for n in own_nodes(body, loops_own_jumps=True)):
        return body
    return [_once(new_name, _swapped(body, gast.Continue, gast.Break, into_loops=False))]


def _once(new_name, body):
    """`for _ in range(1): body` (a break inside leaves it)."""
    return gast.For(target=store(new_name("once")),
                    iter=gast.Call(func=_load("range"), args=[gast.Constant(value=1, kind=None)],
                                   keywords=[]),
                    body=body, orelse=[], type_comment=None)


def _has_return(stmts):
    return any(isinstance(n, gast.Return) for n in own_nodes(stmts))


def _swapped(stmts, old, new, into_loops=True):
    """`stmts` with each statement of type `old` (not in nested defs; not in nested
    loops unless into_loops) replaced by a `new()` at its place."""
    out = []
    for s in stmts:
        if isinstance(s, old):
            out.append(_at(new(), s))
            continue
        if not isinstance(s, (gast.FunctionDef, gast.ClassDef)) and \
                (into_loops or not isinstance(s, (gast.For, gast.While))):
            for field in ("body", "orelse", "finalbody"):
                block = getattr(s, field, None)
                if isinstance(block, list):
                    setattr(s, field, _swapped(block, old, new, into_loops))
        out.append(s)
    return out
