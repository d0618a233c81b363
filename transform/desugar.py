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
        body                          e = context.__enter__()
                                      body
                                      context.__exit__(None, None, None)

A walrus is hoisted only where that keeps the order of evaluation (nothing before it in
its statement calls a function or reads its name, and it is not in a branch of an
`and`/`or`/`if`-expression); a `with` body must not leave by return/break/continue.
Elsewhere they stay, and the check stage refuses them with a hint.
"""
import gast

from .generators import as_list_function, check_generator_calls
from .names import walk


def desugar(src, entry):
    """Rewrite `src.node`'s body in place; refresh what SourceFunction derived from it.
    entry: the function is what the user called grad/vjp on (not a helper it calls)."""
    names = _FreshNames(src.node)
    if not entry:                         # a generator helper: returns its items' list
        as_list_function(src, names.new)
    check_generator_calls(src)
    body = _Desugar(src, names).block(src.node.body)
    copies = _argument_copies(src.node, body) if entry else []
    src.node.body = copies + body
    src.refresh()


def _argument_copies(fdef, body):
    """`x = x.copy()` first for each parameter the body writes into (`x[0] = v`,
    `x.sort()`): the function is differentiated as a map from the values it receives,
    and the caller's array is never changed (the primal would change it). Only for the
    function grad was called on: a helper's caller sees its writes, so writes into a
    helper's parameters stay refused (transform/alias_check.py)."""
    params = [a.id for a in fdef.args.args if isinstance(a, gast.Name)]
    written = set()
    for node in _own_nodes(body):
        if isinstance(node, (gast.Assign, gast.AugAssign)):
            targets = node.targets if isinstance(node, gast.Assign) else [node.target]
            written.update(_item_bases(targets))
        elif isinstance(node, gast.Call) and isinstance(node.func, gast.Attribute) and \
                node.func.attr in _WRITING_METHODS and isinstance(node.func.value, gast.Name):
            written.add(node.func.value.id)
    return [_at(_assign(p, _method(p, "copy")), body[0] if body else fdef)
            for p in params if p in written]


# methods that change an array or list in place (transform/alias_tables.py refuses the
# ones the backward sweep cannot undo on a local array too)
_WRITING_METHODS = {"sort", "fill", "put", "resize", "partition", "itemset", "append",
                    "extend", "insert", "remove", "clear", "reverse", "update",
                    "setdefault", "pop", "popitem"}


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
        self.functional = _Functional(src, names)

    def block(self, stmts):
        out = []
        for s in stmts:
            out.extend(self.statement(s))
        return out

    def statement(self, s):
        for field in ("body", "orelse", "finalbody"):
            if isinstance(getattr(s, field, None), list):
                setattr(s, field, self.block(getattr(s, field)))
        if isinstance(s, gast.AnnAssign):
            return _annotated(s)
        if isinstance(s, gast.Delete) and all(isinstance(t, gast.Name) for t in s.targets):
            return []                          # unbinding a local changes no value
        if isinstance(s, (gast.For, gast.While)) and s.orelse:
            return self.loop_else(s)
        if isinstance(s, gast.With) and _leaves_by_jump(s.body) is None:
            return self.with_statement(s)
        s = self.functional.lambda_def(s) or s
        self.functional.consumed_maps(s)
        if isinstance(s, gast.FunctionDef):
            return self.defaults_now(s) + [s]
        return self.hoist_walruses(s)

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
        enter, leave = [], []
        for item in s.items:
            context = self.names.new("context")
            enter.append(_at(_assign(context, item.context_expr), s))
            entered = _method(context, "__enter__")
            if item.optional_vars is None:
                enter.append(_at(gast.Expr(value=entered), s))
            else:
                enter.append(_at(gast.Assign(targets=[item.optional_vars], value=entered,
                                             type_comment=None), s))
            none = [gast.Constant(value=None, kind=None) for _ in range(3)]
            leave.insert(0, _at(gast.Expr(value=_method(context, "__exit__", none)), s))
        return self.block(enter) + s.body + leave

    def hoist_walruses(self, s):
        before = []
        while True:
            walrus = _hoistable_walrus(s)
            if walrus is None:
                return before + [s]
            before.append(_at(_assign(walrus.target.id, walrus.value), s))
            _replace(s, walrus, _load(walrus.target.id))


def _annotated(s):
    if s.value is None:
        return []                              # `x: int` binds nothing
    return [_at(gast.Assign(targets=[s.target], value=s.value, type_comment=None), s)]


def _leaves_by_jump(body):
    """The first return (anywhere) or break/continue (outside nested loops) that would
    leave a `with` body, else None."""
    for node in _own_nodes(body):
        if isinstance(node, gast.Return):
            return node
    for node in _own_nodes(body, loops_own_jumps=True):
        if isinstance(node, (gast.Break, gast.Continue)):
            return node
    return None


def _own_nodes(body, loops_own_jumps=False):
    """Nodes of `body` outside nested functions (and outside nested loops' bodies when
    loops_own_jumps: a break there belongs to that loop)."""
    todo = list(body)
    while todo:
        node = todo.pop()
        yield node
        if isinstance(node, (gast.FunctionDef, gast.Lambda)):
            continue
        if loops_own_jumps and isinstance(node, (gast.For, gast.While)):
            todo.extend(node.orelse)
            continue
        todo.extend(gast.iter_child_nodes(node))


def _own_breaks(body):
    return [n for n in _own_nodes(body, loops_own_jumps=True) if isinstance(n, gast.Break)]


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


def _method(name, method, args=()):
    return gast.Call(func=gast.Attribute(value=_load(name), attr=method, ctx=gast.Load()),
                     args=list(args), keywords=[])


def _load(name):
    return gast.Name(id=name, ctx=gast.Load(), annotation=None, type_comment=None)


def _assign(name, value):
    target = gast.Name(id=name, ctx=gast.Store(), annotation=None, type_comment=None)
    return gast.Assign(targets=[target], value=value, type_comment=None)


def _at(node, where):
    """`node` (and the nodes it holds without a location) at `where`'s location."""
    for n in walk(node):
        if getattr(n, "lineno", None) is None and "lineno" in n._attributes:
            gast.copy_location(n, where)
    return node


class _Functional:
    """map/filter consumed where they are written become list comprehensions, a lambda
    given to them is inlined, and `f = lambda a: e` (f only ever called) becomes a
    nested `def f(a): return e`.

        total = sum(map(lambda v: v * w, xs))   ->  total = sum([v * w for v in xs])
        kept = list(filter(None, xs))            ->  kept = list([v for v in xs if v])
    """

    def __init__(self, src, names):
        self.src, self.names = src, names
        fdef = src.node
        self.stores, self.values = {}, set()
        called = {id(n.func) for n in walk(fdef) if isinstance(n, gast.Call)}
        for n in walk(fdef):
            if isinstance(n, gast.Name) and isinstance(n.ctx, gast.Store):
                self.stores[n.id] = self.stores.get(n.id, 0) + 1
            elif isinstance(n, gast.Name) and id(n) not in called:
                self.values.add(n.id)

    def lambda_def(self, s):
        """`f = lambda a: e` as `def f(a): return e`, or None."""
        if not (isinstance(s, gast.Assign) and len(s.targets) == 1 and
                isinstance(s.targets[0], gast.Name) and isinstance(s.value, gast.Lambda)):
            return None
        name, fn = s.targets[0].id, s.value
        if self.stores.get(name) != 1 or name in self.values:
            return None                       # rebound, or used as a value: stays a lambda
        body = [_at(gast.Return(value=fn.body), fn.body)]
        fdef = gast.FunctionDef(name=name, args=fn.args, body=body, decorator_list=[],
                                returns=None, type_comment=None)
        return _at(fdef, s)

    def consumed_maps(self, s):
        """Rewrite map/filter calls that are call arguments or loop iterables; spread
        `f(*(a, b))` and write `zip(*rows)` as `transposed(rows)`."""
        for node in walk(s):
            if isinstance(node, gast.Call):
                node.args = [self.as_list(a) for a in _spread_displays(node.args)]
                self.unzip(node)
                _shape_unstarred(node)
                for kw in node.keywords:
                    kw.value = self.as_list(kw.value)
            elif isinstance(node, (gast.For, gast.comprehension)):
                node.iter = self.as_list(node.iter)

    def unzip(self, call):
        """`zip(*rows)` -> `transposed(rows)`: one call with a rule."""
        if not (len(call.args) == 1 and isinstance(call.args[0], gast.Starred) and
                not call.keywords and self.src.resolve(call.func) is zip):
            return
        from runtime.rule_helpers_builtins import transposed
        func = _load("transposed")
        func.runtime_helper = transposed
        call.func, call.args = gast.copy_location(func, call.func), [call.args[0].value]

    def as_list(self, e):
        fn = self.src.resolve(e.func) if isinstance(e, gast.Call) else None
        if fn not in (map, filter) or e.keywords or len(e.args) < 2 or \
                fn is filter and len(e.args) != 2:
            return e
        f, seqs = e.args[0], e.args[1:]
        items = [self.names.new("item") for _ in seqs]
        target = _store(items[0]) if len(items) == 1 else \
            gast.Tuple(elts=[_store(v) for v in items], ctx=gast.Store())
        it = seqs[0] if len(seqs) == 1 else gast.Call(func=_load("zip"), args=seqs,
                                                        keywords=[])
        applied = self.apply(f, items)
        if fn is map:
            elt, ifs = applied, []
        else:
            elt, ifs = _load(items[0]), [_load(items[0]) if applied is None else applied]
        gen = gast.comprehension(target=target, iter=it, ifs=ifs, is_async=0)
        return _at(gast.ListComp(elt=elt, generators=[gen]), e)

    def apply(self, f, items):
        """`f(items...)` as an expression: a lambda's body with its parameters renamed."""
        if isinstance(f, gast.Constant) and f.value is None:
            return None
        if isinstance(f, gast.Lambda) and _plain_parameters(f, len(items)):
            renames = {a.id: v for a, v in zip(f.args.args, items)}
            return _renamed(f.body, renames)
        return gast.Call(func=f, args=[_load(v) for v in items], keywords=[])


def _shape_unstarred(call):
    """`x.reshape(*shape)` -> `x.reshape(shape)` (the methods take a tuple too)."""
    if isinstance(call.func, gast.Attribute) and call.func.attr in ("reshape", "transpose") \
            and len(call.args) == 1 and isinstance(call.args[0], gast.Starred):
        call.args = [call.args[0].value]


def _spread_displays(args):
    """`f(*(a, b), c)` -> `f(a, b, c)`."""
    out = []
    for a in args:
        if isinstance(a, gast.Starred) and isinstance(a.value, (gast.Tuple, gast.List)):
            out.extend(a.value.elts)
        else:
            out.append(a)
    return out


def _plain_parameters(fn, count):
    args = fn.args
    return len(args.args) == count and not (args.vararg or args.kwarg or args.kwonlyargs
                                            or args.defaults or args.posonlyargs)


def _renamed(expr, renames):
    import copy
    expr = copy.deepcopy(expr)
    for n in walk(expr):
        if isinstance(n, gast.Name) and n.id in renames:
            n.id = renames[n.id]
    return expr


def _store(name):
    return gast.Name(id=name, ctx=gast.Store(), annotation=None, type_comment=None)
