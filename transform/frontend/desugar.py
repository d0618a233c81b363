"""Stage 1b, desugar: statements written for convenience become the plain ones the
later stages know, in the user's tree, so every check and analysis sees them.

    loss: float = f(x)            ->  loss = f(x)
    del tmp                       ->  (nothing)
    for v in xs: ... break        ->  broke = False
    else: fallback()                  for v in xs: ... broke = True; break
                                      if not broke: fallback()
    if (n := g(x)) > 0: ...       ->  n = g(x)
                                      if n > 0: ...
    with np.errstate(...) as e:   ->  context = np.errstate(...)
        body                          e = enter_context(context)
                                      body
                                      exit_context(context)

A walrus is hoisted only where that keeps the order of evaluation (nothing before it in
its statement calls a function or reads its name, and it is not in a branch of an
`and`/`or`/`if`-expression); elsewhere it stays, and the check stage refuses it with a
hint. A `with` body left by return/break/continue runs `__exit__` before the jump
(exits.py); `global` reads and sets are scopes.py's.
"""
import copy
import functools
import inspect

import gast
import numpy as np

from .consumed_iterators import consumes_iterator
from .functional import Functional
from .keyword_only import keywords_as_named
from .generators import (WRITING_METHODS, as_list_function, check_generator_calls,
                         objects_own_method, own_nodes)
from .exits import exit_before_jumps, refuse_suppressing
from .scopes import drop_read_only_globals, sets_as_calls
from .try_blocks import try_statement
from .ufunc_at import at_helper, fill_diagonal_statement, ufunc_at_statement
from .vectorize_calls import is_vectorize
from .inline_generators import inline_printing_generators
from .match import match_as_ifs
from .mutable_defaults import mutable_defaults, none_defaults
from .starred_targets import has_starred_target, unstarred
from .walrus import has_walrus, linearized
from runtime.contexts import enter_context, exit_context
from ..ir.nodes import assign as _assign, call_method as _method, load as _load, \
    located as _at, walk


def desugar(src, entry):
    """Rewrite `src.node`'s body in place; refresh what SourceFunction derived from it.
    entry: the function is what the user called grad/vjp on (not a helper it calls)."""
    src.argument_copies = entry           # (the alias check's words for `out=x`)
    if not _has_sugar(src, entry):
        return                            # one scan: most numeric code has none
    names = _FreshNames(src.node)
    if not entry:                         # a generator helper: returns its items' list
        as_list_function(src, names.new)
    inline_printing_generators(src, names.new)
    check_generator_calls(src)
    drop_read_only_globals(src, src.node)
    sets_as_calls(src, src.node)
    body = _Desugar(src, names).block(src.node.body)
    copies = _argument_copies(src, body) if entry else []
    src.node.body = copies + body
    src.refresh()


# nodes that are sugar wherever they appear
_SUGAR = (gast.AnnAssign, gast.Delete, gast.With, gast.NamedExpr, gast.Lambda, gast.Starred,
          gast.Yield, gast.YieldFrom, gast.DictComp, gast.Global, gast.Set, gast.SetComp,
          gast.Try) + ((gast.Match,) if hasattr(gast, "Match") else ())


def _has_sugar(src, entry):
    """Whether anything in the function is for this stage to rewrite (one walk)."""
    fdef = src.node
    params = {a.id for a in fdef.args.args if isinstance(a, gast.Name)} if entry else ()
    for n in walk(fdef):
        kind = type(n)
        if kind in _SUGAR or kind in (gast.For, gast.While) and n.orelse:
            return True
        if kind is gast.ListComp or kind is gast.GeneratorExp:
            if len(n.generators) > 1:
                return True
        elif kind is gast.FunctionDef:
            if n is not fdef and (n.args.defaults or n.args.kwonlyargs):
                return True
        elif kind is gast.Subscript:
            if params and type(n.ctx) is gast.Store and _base_name(n) in params:
                return True
        elif kind is gast.AugAssign:
            if type(n.target) is gast.Name and n.target.id in _in_place_params(src, params):
                return True
        elif kind is gast.Call and _sugar_call(src, n, params):
            return True
    return False


def _sugar_call(src, call, params):
    func = call.func
    if type(func) is gast.Attribute and func.attr in WRITING_METHODS and \
            type(func.value) is gast.Name and func.value.id in params:
        return True
    if type(func) is gast.Name and func.id in src.locals:
        return False
    if type(func) is gast.Call:                      # `np.vectorize(f)(x)`
        return _sugar_call(src, func, params)
    fn = src.resolve(func)
    return fn in (map, filter, functools.reduce) or inspect.isgeneratorfunction(fn) or \
        at_helper(fn) is not None or fn is np.fill_diagonal or is_vectorize(fn) or \
        consumes_iterator(src, fn, call)


def _base_name(target):
    while type(target) is gast.Subscript:
        target = target.value
    return target.id if type(target) is gast.Name else None


def _argument_copies(src, body):
    """`x = x.copy()` first for each parameter the body writes into (`x[0] = v`,
    `x.sort()`): the function is differentiated as a map from the values it receives,
    and the caller's array is never changed (the primal would change it). Only for the
    function grad was called on: a helper's caller sees its writes, so writes into a
    helper's parameters stay refused (transform/alias_check.py)."""
    fdef = src.node
    shared = mutable_defaults(src.fn)          # writes into those are refused instead
    params = [a.id for a in fdef.args.args if isinstance(a, gast.Name) and a.id not in shared]
    in_place = _in_place_params(src, params)
    written = set()
    for node in own_nodes(body):
        if isinstance(node, (gast.Assign, gast.AugAssign)):
            targets = node.targets if isinstance(node, gast.Assign) else [node.target]
            written.update(_item_bases(targets))
        if isinstance(node, gast.AugAssign) and isinstance(node.target, gast.Name) and \
                node.target.id in in_place:
            written.add(node.target.id)          # `a += v` on an array: in place
        elif isinstance(node, gast.Call) and isinstance(node.func, gast.Attribute) and \
                node.func.attr in WRITING_METHODS and isinstance(node.func.value, gast.Name) \
                and not objects_own_method(src, node.func.value.id, node.func.attr):
            written.add(node.func.value.id)
    optional = none_defaults(src.fn)
    return [_at(_assign(p, _shallow_copy(p) if p in optional else _method(p, "copy")),
                body[0] if body else fdef) for p in params if p in written]


def _shallow_copy(name):
    """`copy.copy(p)` for a parameter defaulting to None (`out=None`, then `if out is
    None: out = np.zeros(n)`): None is kept, where `None.copy()` would raise."""
    func = _load("copy_argument")
    func.runtime_helper = copy.copy
    return gast.Call(func=func, args=[_load(name)], keywords=[])


def _in_place_params(src, params):
    """Parameters whose argument is an array or list (from the shapes grad was called
    with): `p += v` on one changes it in place. Unknown kinds are checked when grad is
    called (public/boundary.py refuse_inplace_args)."""
    kinds = getattr(src, "param_kinds", {})
    return {p for p in params if kinds.get(p) in ("array", "list")}


def _item_bases(targets):
    """Names whose items or slices the assignment targets write (x in `x[0][1] = v`)."""
    for target in targets:
        if isinstance(target, (gast.Tuple, gast.List)):
            yield from _item_bases(target.elts)
        while isinstance(target, gast.Subscript):
            target = target.value
            if isinstance(target, gast.Name):
                yield target.id


class _FreshNames:
    """Names no part of the function uses yet."""

    def __init__(self, fdef):
        self.taken = {n.id for n in walk(fdef) if isinstance(n, gast.Name)}
        self.taken.update(a.arg for a in _arguments(fdef.args))

    def new(self, base):
        name, k = base, 0
        while name in self.taken:
            k += 1
            name = f"{base}_{k}"
        self.taken.add(name)
        return name


def _arguments(args):
    return [a for a in args.args + args.kwonlyargs + [args.vararg, args.kwarg]
            if a is not None and hasattr(a, "arg")]


class _Desugar:
    def __init__(self, src, names):
        self.src, self.names = src, names
        self.nested = 0                   # depth of nested defs around the statement
        self.functional = Functional(src, names)

    def block(self, stmts):
        out = []
        for s in stmts:
            out.extend(self.statement(s))
        return out

    def statement(self, s):
        if isinstance(s, gast.Try):
            if self.nested:
                raise self.src.error("a try statement inside a nested function is not "
                                     "supported", s, hint="define the helper at module level")
            return self.block(try_statement(self.src, self.src.node, s, self.names.new))
        if type(s).__name__ == "Match":
            return self.block(match_as_ifs(self.src, s, self.names.new))
        self.nested += isinstance(s, gast.FunctionDef)
        for field in ("body", "orelse", "finalbody"):
            if isinstance(getattr(s, field, None), list):
                setattr(s, field, self.block(getattr(s, field)))
        self.nested -= isinstance(s, gast.FunctionDef)
        if isinstance(s, gast.AnnAssign):
            return _annotated(s)
        if isinstance(s, gast.Delete) and all(isinstance(t, gast.Name) for t in s.targets):
            return []                          # unbinding a local changes no value
        if isinstance(s, gast.While) and has_walrus(s.test):
            linearized(s, self.names.new)            # `while True:`, the test inside
        if isinstance(s, (gast.For, gast.While)) and s.orelse:
            return self.loop_else(s)
        if isinstance(s, gast.With):
            return self.with_statement(s)
        if has_starred_target(s):
            return self.block(unstarred(s, self.names.new))
        s = self.functional.lambda_def(s) or ufunc_at_statement(self.src, s) or \
            fill_diagonal_statement(self.src, s) or s
        self.functional.consumed_maps(s)
        if isinstance(s, gast.FunctionDef):
            keywords_as_named(self.src.node, s)
            return self.defaults_now(s) + [s]
        out = self.hoist_walruses(s)
        return out[:-1] + (linearized(out[-1], self.names.new) or out[-1:])

    def defaults_now(self, fdef):
        """A nested def's defaults are evaluated where it is defined (the compiler
        inlines its calls, which would read them at each call):
        `def g(t, w=w)` -> `g_w = w; def g(t, w=g_w)`."""
        out, params = [], fdef.args.args[len(fdef.args.args) - len(fdef.args.defaults):]
        for k, (param, value) in enumerate(zip(params, fdef.args.defaults)):
            if isinstance(value, gast.Constant):
                continue
            name = self.names.new(f"{fdef.name}_{param.id}")
            out.append(_at(_assign(name, value), fdef))
            fdef.args.defaults[k] = _load(name)
        return out

    def loop_else(self, s):
        broke = self.names.new("broke")
        for jump in _own_breaks(s.body):
            jump.flag = broke
        s.body = _flag_breaks(s.body, broke)
        fallback = gast.If(test=gast.UnaryOp(op=gast.Not(), operand=_load(broke)),
                           body=s.orelse, orelse=[])
        s.orelse = []
        return [_at(_assign(broke, gast.Constant(value=False, kind=None)), s), s,
                _at(fallback, s)]

    def with_statement(self, s):
        refuse_suppressing(self.src, s)
        enter, leave = [], []
        for item in s.items:
            context = self.names.new("context")
            enter.append(_at(_assign(context, item.context_expr), s))
            entered = _context_call(enter_context, context)
            if item.optional_vars is None:
                enter.append(_at(gast.Expr(value=entered), s))
            else:
                enter.append(_at(gast.Assign(targets=[item.optional_vars], value=entered,
                                             type_comment=None), s))
            leave.insert(0, _at(gast.Expr(value=_context_call(exit_context, context)), s))
        body = exit_before_jumps(s.body, leave, self.names.new)
        return self.block(enter) + body + leave

    def hoist_walruses(self, s):
        before = []
        while True:
            walrus = _hoistable_walrus(s)
            if walrus is None:
                return before + [s]
            before.append(_at(_assign(walrus.target.id, walrus.value), s))
            _replace(s, walrus, _load(walrus.target.id))


def _context_call(helper, context):
    """`enter_context(context)` / `exit_context(context)` (runtime/contexts.py: the
    managers open when an exception leaves get their `__exit__`)."""
    func = _load(helper.__name__)
    func.runtime_helper = helper
    return gast.Call(func=func, args=[_load(context)], keywords=[])


def _annotated(s):
    if s.value is None:
        return []                              # `x: int` binds nothing
    return [_at(gast.Assign(targets=[s.target], value=s.value, type_comment=None), s)]


def _own_breaks(body):
    """The loop's breaks (not the one a `while` test with a walrus became)."""
    return [n for n in own_nodes(body, loops_own_jumps=True) if isinstance(n, gast.Break)
            and not getattr(n, "loop_exit", False)]


def _flag_breaks(stmts, broke):
    """Every `break` of this loop becomes `broke = True; break`."""
    out = []
    for s in stmts:
        if isinstance(s, gast.Break) and getattr(s, "flag", None) == broke:
            out.append(_at(_assign(broke, gast.Constant(value=True, kind=None)), s))
        elif not isinstance(s, (gast.For, gast.While, gast.FunctionDef)):
            for field in ("body", "orelse", "finalbody"):
                if isinstance(getattr(s, field, None), list):
                    setattr(s, field, _flag_breaks(getattr(s, field), broke))
        out.append(s)
    return out


# where a walrus may be hoisted from: the statement's own expressions, evaluated once
_HOIST_FROM = {gast.Assign: "value", gast.Expr: "value", gast.Return: "value",
               gast.If: "test", gast.For: "iter", gast.AugAssign: "value"}
_BRANCHES = (gast.BoolOp, gast.IfExp, gast.Lambda, gast.ListComp, gast.DictComp,
             gast.SetComp, gast.GeneratorExp)


def _hoistable_walrus(s):
    field = _HOIST_FROM.get(type(s))
    expr = getattr(s, field, None) if field else None
    if expr is None:
        return None
    read = set()
    for node, in_branch in _in_evaluation_order(expr):
        if isinstance(node, gast.NamedExpr):
            hoistable = not in_branch and isinstance(node.target, gast.Name) and \
                node.target.id not in read
            return node if hoistable else None
        if isinstance(node, gast.Call):
            return None                        # it may have effects the walrus must follow
        if isinstance(node, gast.Name):
            read.add(node.id)
    return None


def _in_evaluation_order(expr, in_branch=False):
    """(node, whether it sits where it may not be evaluated), depth first, operands
    left to right as Python evaluates them."""
    yield expr, in_branch
    for k, child in enumerate(_children(expr)):
        yield from _in_evaluation_order(child, in_branch or _is_branch(expr, k))


def _children(node):
    if isinstance(node, gast.BoolOp):
        return list(node.values)
    if isinstance(node, gast.IfExp):                     # test first, then a branch
        return [node.test, node.body, node.orelse]
    if isinstance(node, gast.Compare):
        return [node.left] + list(node.comparators)
    return [c for c in gast.iter_child_nodes(node) if isinstance(c, gast.expr)]


def _is_branch(node, k):
    """Whether child k of `node` may be skipped (a short circuit, a branch, a body
    evaluated later)."""
    if isinstance(node, (gast.BoolOp, gast.IfExp)):
        return k > 0
    if isinstance(node, gast.Compare):
        return k > 1                                      # a < b < c: c only if a < b
    return isinstance(node, _BRANCHES)


def _replace(tree, old, new):
    for node in walk(tree):
        for field, value in gast.iter_fields(node):
            if value is old:
                setattr(node, field, new)
            elif isinstance(value, list) and any(v is old for v in value):
                setattr(node, field, [new if v is old else v for v in value])
