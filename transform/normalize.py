"""Stage 3, normalize: one operation per statement, each tagged with its Prim.

    h = np.tanh(W @ x + b)        t1 = W @ x
                           ->     t2 = t1 + b
                                  h = np.tanh(t2)

Augmented assignment, conditional expressions, tuple targets, comprehensions
and generator expressions become plain statements and loops. Tests of `if`
and `while` stay as written: their values never carry a derivative.
"""
import builtins
import copy

import gast

import runtime
from .names import NameGen, assign, const, load, store
from .templates import substitute as substitute_names
from .primitives import (BINOPS, NONDIFF_ATTRIBUTES, UNARYOPS, Prim, from_rule, label_of,
                         rule_for)

OPAQUE = (gast.Compare, gast.BoolOp, gast.JoinedStr, gast.FormattedValue)


class Normalizer:
    """Rewrites a function body; `out` collects the statements being emitted."""

    def __init__(self, src, names):
        self.src = src
        self.names = names
        self.out = []
        self.line = None
        self.callees = []
        self.local_defs = {}
        self.inlining = set()

    def block(self, stmts):
        saved, self.out = self.out, []
        for stmt in stmts:
            self.line = getattr(stmt, "lineno", self.line)
            self.statement(stmt)
        block, self.out = self.out, saved
        return block

    def emit(self, node, prim=None):
        node.prim = prim
        node.origin_line = self.line
        self.out.append(node)
        return node

    # ---- statements -------------------------------------------------------
    def statement(self, s):
        method = getattr(self, "stmt_" + type(s).__name__, None)
        if method is None:
            raise self.src.error(f"`{type(s).__name__}` statements are not supported", s)
        method(s)

    def stmt_Assign(self, s):
        if len(s.targets) == 1:
            return self.assign_to(s.targets[0], s.value)
        value = self.atom(s.value)
        for target in s.targets:
            self.assign_to(target, value)

    def assign_to(self, target, value):
        if isinstance(target, gast.Name):
            return self.expr(value, target.id)
        if isinstance(target, (gast.Tuple, gast.List)):
            whole = self.atom(value)
            for k, elt in enumerate(target.elts):
                item = gast.Subscript(value=whole, slice=const(k), ctx=gast.Load())
                self.assign_to(elt, item)
            return None
        if isinstance(target, gast.Subscript):
            return self.write_item(target, self.atom(value))
        raise self.src.error("this assignment target is not supported", target,
                             hint="assign to a local name")

    def write_item(self, target, value):
        """`x[i] = v`: an in-place write the backward sweep can undo."""
        if not isinstance(target.value, gast.Name):
            raise self.src.error("writing into an element of an expression is not supported",
                                 target, hint="give the container a local name first")
        base = target.value.id
        if base in self.src.params:
            raise self.src.error(f"writing into the argument `{base}` is not supported: it "
                                 "would change the caller's array", target,
                                 hint=f"copy it first: `{base} = {base}.copy()`, or build a new "
                                      "array")
        index = self.index(target.slice)
        node = gast.Assign(targets=[gast.Subscript(value=load(base), slice=index,
                                                   ctx=gast.Store())],
                           value=value, type_comment=None)
        self.emit(node, Prim("setitem", "setitem", args=[load(base), value],
                             inputs={"index": index}))
        return None

    def stmt_AugAssign(self, s):
        if isinstance(s.target, gast.Subscript):
            read = gast.Subscript(value=s.target.value, slice=s.target.slice, ctx=gast.Load())
            value = self.atom(gast.BinOp(left=read, op=s.op, right=s.value))
            return self.write_item(s.target, value)
        value = gast.BinOp(left=load(s.target.id), op=s.op, right=s.value)
        self.expr(value, s.target.id)

    def stmt_Expr(self, s):
        if isinstance(s.value, gast.Constant):
            return None                          # docstring or bare constant
        self.expr(s.value, None, discard=True)

    def stmt_Return(self, s):
        value = self.atom(s.value) if s.value is not None else const(None)
        self.emit(gast.Return(value=value))

    def stmt_If(self, s):
        cond = self.names.new("cond")
        self.emit(assign(cond, s.test), Prim("nondiff", "test"))
        node = gast.If(test=load(cond), body=self.block(s.body) or [gast.Pass()],
                       orelse=self.block(s.orelse))
        self.emit(node)

    def stmt_While(self, s):
        node = gast.While(test=s.test, body=self.block(s.body) or [gast.Pass()], orelse=[])
        self.emit(node)

    def flatten_enumerate_zip(self, target, it):
        """`for i, (a, b) in enumerate(zip(A, B))` -> `for i, a, b in zip(range(..), A, B)`;
        `for v in d.values()` -> `for key, v in d.items()`."""
        if isinstance(it, gast.Call) and isinstance(it.func, gast.Attribute) and \
                it.func.attr == "values" and not it.args and self.src.resolve(it.func) is None:
            key = gast.Name(id=self.names.new("key"), ctx=gast.Store(), annotation=None,
                            type_comment=None)
            items = gast.Call(func=gast.Attribute(value=it.func.value, attr="items",
                                                  ctx=gast.Load()), args=[], keywords=[])
            return gast.Tuple(elts=[key, target], ctx=gast.Store()), items
        if not (isinstance(it, gast.Call) and self.src.resolve(it.func) is enumerate
                and it.args and isinstance(it.args[0], gast.Call)
                and self.src.resolve(it.args[0].func) is zip
                and isinstance(target, gast.Tuple) and len(target.elts) == 2
                and isinstance(target.elts[1], gast.Tuple)):
            return target, it
        start = it.args[1] if len(it.args) > 1 else const(0)
        counter = gast.Call(func=load("range"), args=[start, const(1 << 62)], keywords=[])
        zipped = gast.Call(func=it.args[0].func, args=[counter] + it.args[0].args, keywords=[])
        flat = gast.Tuple(elts=[target.elts[0]] + target.elts[1].elts, ctx=gast.Store())
        return flat, zipped

    def stmt_For(self, s):
        s.target, s.iter = self.flatten_enumerate_zip(s.target, s.iter)
        kind, seqs, forward_iter = self.loop_iterable(s.iter)
        node = gast.For(target=s.target, iter=forward_iter, body=[], orelse=[],
                        type_comment=None)
        node.iter_kind, node.seqs = kind, seqs
        node.body = self.block(s.body) or [gast.Pass()]
        self.emit(node)

    def loop_iterable(self, it):
        """(kind, names of the sequences walked, forward iter expression)."""
        fn = self.src.resolve(it.func) if isinstance(it, gast.Call) else None
        if fn is range:
            name = self.names.new("steps")
            args = [self.atom(a) for a in it.args]
            call = gast.Call(func=load("range"), args=args, keywords=[])
            self.emit(assign(name, call), Prim("nondiff", "range"))
            return "range", [name], load(name)
        if fn is enumerate or fn is zip:
            seqs = [self.snapshot(a) for a in it.args[:1 if fn is enumerate else None]]
            extra = [self.atom(a) for a in it.args[1:]] if fn is enumerate else []
            for kw in it.keywords:
                extra.append(self.atom(kw.value))
            call = gast.Call(func=load(fn.__name__), args=[load(n) for n in seqs] + extra,
                             keywords=[])
            return fn.__name__, seqs + [e for e in extra], call
        if isinstance(it, gast.Call) and isinstance(it.func, gast.Attribute) and \
                it.func.attr == "items" and not it.args and self.src.resolve(it.func) is None:
            name, source = self.names.new("seq"), self.atom(it.func.value)
            self.emit(assign(name, source), Prim("copy", "copy", args=[source]))
            call = gast.Call(func=gast.Attribute(value=load(name), attr="items",
                                                 ctx=gast.Load()), args=[], keywords=[])
            return "items", [name], call
        name = self.snapshot(it)
        return "seq", [name], load(name)

    def snapshot(self, expr):
        """Keep an iterable in a fresh name the backward sweep can walk again."""
        name = self.names.new("seq")
        value = gast.Call(func=load("iterable"), args=[self.atom(expr)], keywords=[])
        self.emit(assign(name, value), Prim("copy", "iterable", args=[value.args[0]]))
        return name

    def stmt_FunctionDef(self, s):
        """A nested def is inlined where it is called, so closures over active values work.

        Its default values are computed here, where Python evaluates them.
        """
        defaults = []
        for k, value in enumerate(s.args.defaults):
            name = self.names.new(f"{s.name}_default")
            self.expr(value, name)
            defaults.append(load(name))
        s.args.defaults = defaults
        self.local_defs[s.name] = s

    def inline_call(self, fdef, e, target):
        """`t = helper(a)` with a nested def: its body, renamed, computing into t."""
        from .control import ControlLowering
        if fdef.name in self.inlining:
            raise self.src.error(f"the nested function {fdef.name}() calls itself", e,
                                 hint="define a recursive helper at module level")
        params = [a.id for a in fdef.args.args]
        stored = {n.id for n in gast.walk(fdef) if isinstance(n, gast.Name)
                  and isinstance(n.ctx, (gast.Store, gast.Param))} | set(params)
        renames = {name: load(self.names.reserve(f"{fdef.name}_{name}")) for name in stored}
        values = self.bind_nested(fdef, params, e)
        for param in params:
            self.expr(values[param], renames[param].id)
        body = [_Rename(renames).visit(copy.deepcopy(st)) for st in fdef.body]
        result = target or self.names.new("t")
        self.inlining.add(fdef.name)
        block = self.block(body)
        self.inlining.discard(fdef.name)
        if not block or not isinstance(block[-1], gast.Return):
            block.append(gast.Return(value=const(None)))
        block = ControlLowering(self.names).lower_returns(block, result)
        final = block.pop()
        self.out.extend(block)
        if not (isinstance(final.value, gast.Name) and final.value.id == result):
            self.expr(final.value, result)
        return result

    def bind_nested(self, fdef, params, e):
        defaults = dict(zip(params[len(params) - len(fdef.args.defaults):], fdef.args.defaults))
        values = dict(zip(params, e.args))
        values.update({kw.arg: kw.value for kw in e.keywords})
        missing = [p for p in params if p not in values and p not in defaults]
        if missing or len(e.args) > len(params):
            raise self.src.error(f"bad arguments for the nested function {fdef.name}()", e)
        return {p: values.get(p, defaults.get(p)) for p in params}

    def stmt_Break(self, s):
        self.emit(gast.Break())

    def stmt_Continue(self, s):
        self.emit(gast.Continue())

    def stmt_Pass(self, s):
        return None

    def stmt_Raise(self, s):
        self.emit(s, Prim("nondiff", "raise"))

    def stmt_Assert(self, s):
        self.emit(s, Prim("nondiff", "assert"))

    # ---- expressions ------------------------------------------------------
    def atom(self, e):
        """An atom (Name, Constant, or static reference) holding the value of `e`."""
        if isinstance(e, (gast.Name, gast.Constant)):
            return e
        if isinstance(e, gast.Attribute) and self.src.resolve(e) is not None:
            return e                            # np.pi, math.e: a constant
        return load(self.expr(e, None))

    def expr(self, e, target, discard=False):
        """Emit statements computing `e` into `target` (a new temporary if None)."""
        method = getattr(self, "expr_" + type(e).__name__, None)
        if isinstance(e, OPAQUE) or method is None and isinstance(e, gast.expr):
            if method is None and not isinstance(e, OPAQUE):
                raise self.src.error(f"`{type(e).__name__}` expressions are not supported", e)
            return self.finish(target, e, Prim("nondiff", type(e).__name__))
        return method(e, target, discard) if method else None

    def finish(self, target, value, prim, discard=False):
        if discard and prim.kind in ("nondiff", "append", "extend"):
            self.emit(gast.Expr(value=value), prim)
            return None
        if target is not None and prim.kind not in ("nondiff", "copy") and \
                any(isinstance(n, gast.Name) and n.id == target for n in gast.walk(value)):
            # `s = s * x` reads the old s in its adjoint: compute into a temporary first
            temp = self.names.new("t")
            self.emit(assign(temp, value), prim)
            return self.finish(target, load(temp), Prim("copy", "copy", args=[load(temp)]))
        target = target or self.names.new("t")
        self.emit(assign(target, value), prim)
        return target

    def expr_Name(self, e, target, discard):
        return self.finish(target, e, Prim("copy", "copy", args=[e]))

    def expr_Constant(self, e, target, discard):
        return self.finish(target, e, Prim("nondiff", "constant"))

    def expr_Attribute(self, e, target, discard):
        if self.src.resolve(e) is not None:
            return self.finish(target, e, Prim("nondiff", "constant"))
        base = self.atom(e.value)
        node = gast.Attribute(value=base, attr=e.attr, ctx=gast.Load())
        if e.attr in NONDIFF_ATTRIBUTES:
            return self.finish(target, node, Prim("nondiff", e.attr))
        if e.attr == "T":
            import numpy as np
            return self.finish(target, node, from_rule(rule_for(np.transpose), [base], {}, ".T"))
        prim = from_rule(rule_for(getattr), [base, const(e.attr)], {}, "getattr")
        return self.finish(target, node, prim)

    def expr_BinOp(self, e, target, discard):
        left, right = self.atom(e.left), self.atom(e.right)
        fn = BINOPS[type(e.op)]
        node = gast.BinOp(left=left, op=e.op, right=right)
        return self.finish(target, node, self.rule_prim(fn, [left, right], {}, e))

    def expr_UnaryOp(self, e, target, discard):
        operand = self.atom(e.operand)
        node = gast.UnaryOp(op=e.op, operand=operand)
        return self.finish(target, node, self.rule_prim(UNARYOPS[type(e.op)], [operand], {}, e))

    def expr_Subscript(self, e, target, discard):
        import operator
        base = self.atom(e.value)
        index = self.index(e.slice)
        node = gast.Subscript(value=base, slice=index, ctx=gast.Load())
        prim = from_rule(rule_for(operator.getitem), [base, index], {}, "[]")
        return self.finish(target, node, prim)

    def index(self, s):
        if isinstance(s, gast.Slice):
            parts = [None if p is None else self.atom(p) for p in (s.lower, s.upper, s.step)]
            return gast.Slice(lower=parts[0], upper=parts[1], step=parts[2])
        if isinstance(s, gast.Tuple):
            return gast.Tuple(elts=[self.index(p) for p in s.elts], ctx=gast.Load())
        return self.atom(s)

    def expr_IfExp(self, e, target, discard):
        target = target or self.names.new("t")
        cond = self.names.new("cond")
        self.emit(assign(cond, e.test), Prim("nondiff", "test"))
        body = self.block_of(lambda: self.expr(e.body, target))
        orelse = self.block_of(lambda: self.expr(e.orelse, target))
        self.emit(gast.If(test=load(cond), body=body, orelse=orelse))
        return target

    def block_of(self, build):
        saved, self.out = self.out, []
        build()
        block, self.out = self.out, saved
        return block

    def expr_Tuple(self, e, target, discard):
        elts = [self.atom(x) for x in e.elts]
        node = gast.Tuple(elts=elts, ctx=gast.Load())
        return self.finish(target, node, Prim("pack", "tuple", args=elts))

    def expr_List(self, e, target, discard):
        elts = [self.atom(x) for x in e.elts]
        node = gast.List(elts=elts, ctx=gast.Load())
        return self.finish(target, node, Prim("pack", "list", args=elts))

    def expr_Dict(self, e, target, discard):
        if any(k is None or not isinstance(k, gast.Constant) for k in e.keys):
            raise self.src.error("dict literals need constant keys", e,
                                 hint="build the dict with d[key] = value")
        values = [self.atom(v) for v in e.values]
        node = gast.Dict(keys=e.keys, values=values)
        prim = Prim("pack", "dict", args=values)
        prim.keys = [k.value for k in e.keys]
        return self.finish(target, node, prim)

    def expr_ListComp(self, e, target, discard):
        return self.comprehension(e, target, reduce_sum=False)

    def expr_GeneratorExp(self, e, target, discard):
        return self.comprehension(e, target, reduce_sum=False)

    def comprehension(self, e, target, reduce_sum):
        """[elt for v in it if c]  ->  acc = []; for v in it: (if c:) acc.append(elt)."""
        gen = e.generators[0]
        gen.target, gen.iter = self.flatten_enumerate_zip(gen.target, gen.iter)
        acc = target or self.names.new("sum" if reduce_sum else "items")
        start = const(0) if reduce_sum else gast.List(elts=[], ctx=gast.Load())
        self.emit(assign(acc, start),
                  Prim("nondiff", "start") if reduce_sum else Prim("pack", "list", args=[]))
        kind, seqs, forward_iter = self.loop_iterable(gen.iter)

        def body():
            value = self.atom(e.elt)
            if reduce_sum:
                self.expr(gast.BinOp(left=load(acc), op=gast.Add(), right=value), acc)
            else:
                self.append_to(acc, value)
        inner = self.block_of(body)
        for cond in reversed(gen.ifs):
            name = self.names.new("cond")
            test = [assign(name, cond)]
            test[0].prim, test[0].origin_line = Prim("nondiff", "test"), self.line
            inner = test + [gast.If(test=load(name), body=inner, orelse=[])]
            inner[-1].prim, inner[-1].origin_line = None, self.line
        node = gast.For(target=gen.target, iter=forward_iter, body=inner, orelse=[],
                        type_comment=None)
        node.iter_kind, node.seqs = kind, seqs
        self.emit(node)
        return acc

    def append_to(self, acc, value):
        call = gast.Call(func=gast.Attribute(value=load(acc), attr="append", ctx=gast.Load()),
                         args=[value], keywords=[])
        self.emit(gast.Expr(value=call), Prim("append", "append", args=[load(acc), value]))

    def expr_Call(self, e, target, discard):
        if any(isinstance(a, gast.Starred) for a in e.args):
            raise self.src.error("`*args` in a call is not supported yet", e,
                                 hint="pass the arguments one by one")
        func = e.func
        if isinstance(func, gast.Name) and func.id in self.local_defs:
            return self.inline_call(self.local_defs[func.id], e, target)
        if isinstance(func, gast.Attribute) and self.src.resolve(func) is None:
            return self.method_call(e, target, discard)
        fn = self.src.resolve(func)
        if fn is None and isinstance(func, gast.Name) and func.id in self.src.locals:
            return self.dynamic_call(e, target, discard)
        if fn is None:
            raise self.src.error("cannot tell which function this call refers to", e,
                                 hint="call a module-level function or NumPy directly")
        if fn is builtins.sum and len(e.args) == 1 and isinstance(e.args[0], gast.GeneratorExp):
            return self.comprehension(e.args[0], target, reduce_sum=True)
        if fn is dict and not e.args and all(kw.arg for kw in e.keywords):
            literal = gast.Dict(keys=[const(kw.arg) for kw in e.keywords],
                                values=[kw.value for kw in e.keywords])
            return self.expr_Dict(literal, target, discard)
        args = [self.atom(a) for a in e.args]
        keywords = {kw.arg: self.atom(kw.value) for kw in e.keywords}
        node = gast.Call(func=func, args=args,
                         keywords=[gast.keyword(arg=k, value=v) for k, v in keywords.items()])
        prim = self.rule_prim(fn, args, keywords, e)
        return self.finish(target, node, prim, discard)

    def dynamic_call(self, e, target, discard):
        """`f(x)` where f is a local value (a function or callable object): dispatched at
        run time to the compiled rule of f (or of type(f).__call__)."""
        args = [self.atom(a) for a in e.args]
        keywords = {kw.arg: self.atom(kw.value) for kw in e.keywords}
        node = gast.Call(func=e.func, args=args,
                         keywords=[gast.keyword(arg=k, value=v) for k, v in keywords.items()])
        prim = Prim("call", "call", args=[e.func] + args)
        prim.method, prim.receiver = "__call__", e.func
        return self.finish(target, node, prim, discard)

    def method_call(self, e, target, discard):
        base = self.atom(e.func.value)
        name = e.func.attr
        args = [self.atom(a) for a in e.args]
        keywords = {kw.arg: self.atom(kw.value) for kw in e.keywords}
        node = gast.Call(func=gast.Attribute(value=base, attr=name, ctx=gast.Load()), args=args,
                         keywords=[gast.keyword(arg=k, value=v) for k, v in keywords.items()])
        if name in ("append", "extend") and len(args) == 1 and not keywords:
            self.emit(gast.Expr(value=node), Prim(name, name, args=[base, args[0]]))
            return None
        fn = runtime.method_function(name)
        if fn is None:                 # a method of a user object: compiled when first called
            prim = Prim("call", f".{name}", args=[base] + args)
            prim.method, prim.receiver = name, base
            return self.finish(target, node, prim, discard)
        if name in ("reshape", "transpose") and len(args) > 1:
            args = [gast.Tuple(elts=args, ctx=gast.Load())]
        prim = self.rule_prim(fn, [base] + args, keywords, e)
        return self.finish(target, node, prim, discard)

    def rule_prim(self, fn, args, keywords, node):
        while getattr(fn, "thunkgrad_policy", None) is not None:   # @differentiable
            fn = fn.__wrapped__
        rule = rule_for(fn)
        label = label_of(fn)
        if rule is not None:
            try:
                return from_rule(rule, args, keywords, label)
            except TypeError as exc:
                raise self.src.error(f"bad arguments for {label}: {exc}", node) from None
        if callable(fn) and getattr(fn, "__code__", None) is not None:
            self.callees.append(fn)
            return Prim("call", label, fn=fn, args=self.by_position(fn, args, keywords, node))
        name = getattr(fn, "__name__", "fn")
        raise self.src.error(
            f"{label} has no derivative rule and no Python source to compile", node,
            hint=f"register a rule: `@rrule({name})` over `def {name}_rule(x): "
                 f"return {name}(x), lambda g: (Thunk(lambda: unthunk(g) * <derivative>),)`")


    def by_position(self, fn, args, keywords, node):
        """Call atoms in the callee's parameter order (its pullback's order)."""
        import inspect
        try:
            bound = inspect.signature(fn).bind(*args, **keywords)
        except TypeError as exc:
            raise self.src.error(f"bad arguments for {fn.__name__}(): {exc}", node) from None
        params = [p for p in inspect.signature(fn).parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
        return [bound.arguments.get(p.name, const(None)) for p in params]


class _Rename(gast.NodeTransformer):
    """Rename names in every context (loads, stores) of an inlined body."""

    def __init__(self, renames):
        self.renames = renames

    def visit_Name(self, node):
        if node.id in self.renames:
            node.id = self.renames[node.id].id
        return node


def normalize_function(src, names):
    """The function body as normalized statements."""
    normalizer = Normalizer(src, names)
    body = normalizer.block(src.node.body)
    if not body or not isinstance(body[-1], gast.Return):
        end = gast.Return(value=const(None))
        end.prim, end.origin_line = None, None
        body.append(end)
    return body, normalizer.callees
