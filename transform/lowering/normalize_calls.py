"""Stage 3, normalize: calls: rules, user functions, methods, nested defs.

    h = layer(W, b, x)      ->  Prim("call", fn=layer)      (compiled to its own rule)
    y = x.sum(axis=0)       ->  Prim("rule", np.sum)        (an ndarray method)
    y = helper(x)           ->  helper's body, inlined       (a nested def)
    y = rhs(x, W)           ->  rhs's body, inlined          (small, in a loop: inline_helpers)
"""
import builtins
import copy
import functools
import inspect
import types

import gast

import runtime
from ..ir.nodes import assign, const, load, renamed
from ..ir.primitives import (Prim, from_rule, label_of, opaque_library, opaque_library_rule,
                             rule_for, unsafe_call_hint)
from .receiver_kinds import bound_method, callable_object, method_rule, receiver_kind
from .receivers import bound_to_generator, random_method
from .shape_methods import SHAPE_METHODS, array_branch, user_branch
from .rule_arguments import rule_arguments
from .numpy_methods import dispatch_numpy_method, guard_argument_method, numpy_method_of
from .functions_as_values import free_locals, refuse_rebound_def
from .inline_helpers import bound_arguments, helper_renames, inlinable_call
from ..frontend.constructors import constructor_of
from ..frontend.varargs import with_varargs
from .records import object_builder, record_rule
from .integer_results import integer_call
from .spread_calls import STARRED_INSTEAD, spread_call_of
from .returns import ReturnLowering


class CallNormalizer:
    """A Normalizer's part: every kind of call."""

    def __init__(self, normalizer):
        self.norm = normalizer          # the Normalizer: its output, line, nested defs
        self.src, self.names = normalizer.src, normalizer.names

    def stmt_FunctionDef(self, s):
        """A nested def is inlined where it is called, so closures over active values work.
        Its default values are computed here, where Python evaluates them."""
        refuse_rebound_def(self.src, s)
        defaults = []
        for value in s.args.defaults:
            name = self.names.new(f"{s.name}_default")
            self.norm.expr(value, name)
            defaults.append(load(name))
        s.args.defaults = defaults
        self.norm.local_defs[s.name] = s

    def inline_call(self, fdef, e, target, module_helper=False):
        """`t = helper(a)` with a nested def (or a module helper): its body, renamed, into t."""
        if fdef.name in self.norm.inlining:
            raise self.src.error(f"the nested function {fdef.name}() calls itself", e,
                                 hint="define a recursive helper at module level")
        params = [a.id for a in fdef.args.args]
        stored = {n.id for n in gast.walk(fdef) if isinstance(n, gast.Name)
                  and isinstance(n.ctx, (gast.Store, gast.Param))} | set(params)
        values = bound_arguments(fdef, params, e, self.src)
        renames, passed = helper_renames(fdef, stored, values, self.src, self.names) \
            if module_helper else ({n: load(self.names.reserve(f"{fdef.name}_{n}"))
                                    for n in stored}, {})
        for param in (p for p in params if p not in passed):
            self.norm.expr(values[param], renames[param].id)
        body = [renamed(st, renames) for st in fdef.body]
        result = target or self.names.new("t")
        self.norm.inlining.add(fdef.name)
        block = self.norm.closures.inlined(fdef, body, {} if module_helper else renames)
        self.norm.inlining.discard(fdef.name)
        if not block or not isinstance(block[-1], gast.Return):
            block.append(gast.Return(value=const(None)))
        block = ReturnLowering(self.names).lower_returns(block, result)
        final = block.pop()
        self.norm.out.extend(block)
        if not (isinstance(final.value, gast.Name) and final.value.id == result):
            self.norm.expr(final.value, result)
        return result

    def expr_Call(self, e, target, discard):
        func = e.func
        self.refuse_called_lambda(func)
        if isinstance(func, gast.Name) and func.id in self.norm.local_defs:
            return self.inline_call(self.norm.local_defs[func.id], e, target)
        fn = self.src.resolve(func)
        spread = spread_call_of(self.src, self.names, e, fn)  # f(*xs), len(xs) when it runs
        if spread is not None:
            return self.dynamic_call(spread, target, discard)
        fdef = self.norm.loop_depth and \
            inlinable_call(fn, e, self.norm.inlining, self.src, self.names)
        if fdef:
            return self.inline_call(fdef, e, target, module_helper=True)
        if getattr(func, "runtime_helper", None) is not None:
            # a try statement's own function, an object builder, list.index, ...
            self.names.objects.setdefault(func.id, fn)
            func = self.names.ref(func.id)         # the compiler's own name for it
        if isinstance(func, gast.Attribute) and (fn is None or bound_to_generator(fn) or
                                                 bound_method(fn)) and \
                not (fn is not None and opaque_library(fn)):    # scipy.stats.norm.logpdf
            return self.method_call(e, target, discard)
        if fn is None and isinstance(func, gast.Name) and func.id in self.src.locals or \
                callable_object(fn) or fn is None and isinstance(func, (gast.Subscript,
                                                                         gast.Call)):
            return self.dynamic_call(e, target, discard)    # ops["a"](x) too
        if fn is None:
            raise self.src.error("cannot tell which function this call refers to", e,
                                 hint="call a module-level function or NumPy directly")
        if fn is functools.partial and self.norm.closures.partial_call(e) is not None:
            return self.expr_Call(self.norm.closures.partial_call(e), target, discard)
        if fn in (builtins.max, builtins.min) and len(e.args) > 1:     # one rule: max(xs)
            e = gast.Call(func=e.func, args=[gast.Tuple(elts=e.args, ctx=gast.Load())],
                          keywords=e.keywords)
        if fn is builtins.sum and len(e.args) == 1 and isinstance(e.args[0], gast.GeneratorExp):
            return self.norm.loops.comprehension(e.args[0], target, reduce_sum=True)
        if fn is dict and not e.args and all(kw.arg for kw in e.keywords):
            literal = gast.Dict(keys=[const(kw.arg) for kw in e.keywords],
                                values=[kw.value for kw in e.keywords])
            return self.norm.expr_Dict(literal, target, discard)
        if numpy_method_of(self.src, e, fn) is not None:    # np.sum(obj): obj.sum(...)
            return dispatch_numpy_method(self, e, func, fn, target)
        guard_argument_method(self, e, fn)      # np.sum(b), b an argument: numpy_methods.py
        return integer_call(self, e, func, fn, target, discard) or \
            self.rule_call(e, func, fn, target, discard)    # `len(c) - 1`: integer_results.py

    def rule_call(self, e, func, fn, target, discard):
        """A call to `fn` by its rule (or a nondiff/helper declaration), arguments as atoms."""
        args = [self.argument(a) for a in e.args]
        keywords = {kw.arg: self.argument(kw.value) for kw in e.keywords}
        node = gast.Call(func=func, args=args,
                         keywords=[gast.keyword(arg=k, value=v) for k, v in keywords.items()])
        prim = self.rule_prim(fn, args, keywords, e)
        self.refuse_lambdas(prim)
        self.refuse_starred(prim, e)
        made = self.norm.finish(target, node, prim, discard)
        self.norm.closures.expire_pending()
        return made

    def refuse_called_lambda(self, func):
        if isinstance(func, gast.Lambda):
            raise self.src.error("calling a lambda where it is written is not supported",
                                 func, hint="write the expression itself, or assign the "
                                            "lambda to a name and call that")

    def argument(self, e):
        """A call's argument as an atom; a lambda stays where it is written (a key
        function: it runs inside the call, in the forward sweep only); `*xs` keeps its
        star (allowed only where no derivative flows: see refuse_starred)."""
        if isinstance(e, gast.Starred):
            return gast.Starred(value=self.norm.atom(e.value), ctx=gast.Load())
        if isinstance(e, gast.Lambda) and not free_locals(e, self.src.locals):
            return e
        if isinstance(e, gast.Lambda):    # reading locals: a closure record
            return load(self.norm.closures.record(e, e.args.defaults, argument=True))
        return self.norm.atom(e)

    def refuse_starred(self, prim, node):
        """`f(*xs)`: which parameters xs fills is known only at run time, so only a
        call no derivative flows through may take it (`rng.normal(size=...)`,
        `np.zeros(*shape)`; reasons.py refuses a value being differentiated in it)."""
        starred = any(isinstance(a, gast.Starred) for a in getattr(node, "args", ()))
        spread = any(kw.arg is None for kw in getattr(node, "keywords", ()))
        if prim.kind == "nondiff" or not (starred or spread):
            return
        star = "*" if starred else "**"
        raise self.src.error(f"`{star}` in a call to {prim.label}() is not supported here: "
                             "the parameters it fills are known only when the code runs",
                             node, hint=STARRED_INSTEAD[star])

    def refuse_lambdas(self, prim):
        """A lambda argument is fine where no derivative flows through it (a key, a
        position without a rule: transform/reasons.py refuses one that captures a value
        being differentiated there); elsewhere its calls would go undifferentiated."""
        if prim.kind == "nondiff":
            return
        bound = prim.inputs.items() if prim.kind == "rule" else enumerate(prim.args)
        for param, atom in bound:
            if prim.kind == "call" and isinstance(atom, gast.Lambda) and \
                    not free_locals(atom, self.src.locals):
                continue            # a constant function: compiled where the helper calls it
            if isinstance(atom, gast.Lambda) and (prim.kind != "rule" or
                                                  param in prim.rule.templates):
                raise self.src.error(
                    f"a lambda passed to {prim.label}() is not supported: the calls it "
                    "makes there would not be differentiated", atom,
                    hint="define the function with def at module level and pass it, or "
                         "write the loop or comprehension yourself")

    def dynamic_call(self, e, target, discard):
        """`f(x)`, f a local function or callable: its compiled rule, chosen when it runs."""
        self.refuse_starred(Prim("call", getattr(e.func, "id", "the callable")), e)
        func = self.norm.atom(e.func)
        args = [self.norm.atom(a) for a in e.args]
        keywords = {kw.arg: self.norm.atom(kw.value) for kw in e.keywords}
        node = gast.Call(func=func, args=args,
                         keywords=[gast.keyword(arg=k, value=v) for k, v in keywords.items()])
        prim = Prim("call", "call", args=[func] + args)
        prim.method, prim.receiver = "__call__", func
        prim.operands, prim.site = list(keywords.items()), e
        return self.norm.finish(target, node, prim, discard)

    def method_call(self, e, target, discard):
        made = self.method_call_of(e, target, discard)
        self.norm.closures.expire_pending()
        return made

    def method_call_of(self, e, target, discard):
        base = self.norm.atom(e.func.value)
        name = e.func.attr
        stored = name in ("append", "extend") and len(e.args) == 1 and not e.keywords
        args = [self.norm.atom(a) if stored and isinstance(a, gast.Lambda) and
                free_locals(a, self.src.locals) else self.argument(a) for a in e.args]
        keywords = {kw.arg: self.norm.atom(kw.value) for kw in e.keywords}
        node = gast.Call(func=gast.Attribute(value=base, attr=name, ctx=gast.Load()), args=args,
                         keywords=[gast.keyword(arg=k, value=v) for k, v in keywords.items()])
        if name in ("append", "extend") and len(args) == 1 and not keywords:
            if isinstance(args[0], gast.Lambda):     # kept as a value (or refused there)
                args[0] = node.args[0] = load(self.norm.expr_Lambda(args[0], None, False))
            self.norm.emit(gast.Expr(value=node), Prim(name, name, args=[base, args[0]]))
            return None
        if name == "_replace" and not args and keywords and all(keywords):
            return self.replace_fields(e, base, keywords, target, discard)
        fn = random_method(self.src, e.func.value, name)
        kind = "array"
        if fn is None:
            fn = runtime.method_function(name)
            kind = "object" if fn is None else receiver_kind(self.src, e.func.value, name)
        if kind == "unknown" and (_constant_arguments(e) or name in SHAPE_METHODS):
            return self.dispatch_method(e, node, base, (fn, args, keywords), target)
        if kind != "array":            # a user object's method: compiled when first called
            return self.user_method(e, node, base, args, keywords, target, discard)
        return self.array_method(e, node, base, (fn, args, keywords), target, discard)

    def replace_fields(self, e, base, keywords, target, discard):
        """`p._replace(a=v)` -> `replace_fields(p, ("a",), v)`: a rule by position."""
        args = [base, const(tuple(keywords))] + list(keywords.values())
        node = self.names.call("replace_fields", *args)
        prim = self.rule_prim(runtime.TEMPLATE_NAMESPACE["replace_fields"], args, {}, e)
        return self.norm.finish(target, node, prim, discard)

    def user_method(self, e, node, base, args, keywords, target, discard):
        prim = Prim("call", f".{e.func.attr}", args=[base] + args)
        prim.method, prim.receiver = e.func.attr, base
        prim.operands, prim.site = list(keywords.items()), e   # positional only in args
        self.refuse_starred(prim, e)
        self.refuse_lambdas(prim)
        return self.norm.finish(target, node, prim, discard)

    def array_method(self, e, node, base, call, target, discard):
        fn, args, keywords = call
        if e.func.attr in ("reshape", "transpose") and len(args) > 1:
            args = [gast.Tuple(elts=args, ctx=gast.Load())]
        prim = self.rule_prim(fn, [base] + args, keywords, e)
        prim.receiver_first = True             # argument 0 is the receiver
        self.refuse_starred(prim, e)
        return self.norm.finish(target, node, prim, discard)

    def dispatch_method(self, e, node, base, call, target):
        """`r.mean(...)` where the source does not show what r is: the user's method if
        r is not an array (or number or container) when the code runs, else the rule:
            cond = is_user_object(r, "mean")
            if cond: t = r.mean()  (compiled from type(r).mean)
            else:    t = r.mean()  (np.mean's rule)
        """
        target = target or self.names.new("t")
        cond = self.names.new("cond")
        self.norm.emit(assign(cond, self.names.call("is_user_object", base,
                                                    const(e.func.attr))),
                       Prim("nondiff", "test"))
        mine = user_branch(self, e, _copied(node), base, call, target)
        rule = self.norm.block_of(lambda: array_branch(      # (shape_methods.py)
            self, e, _copied(node), base, call, target))
        self.norm.emit(gast.If(test=load(cond), body=mine, orelse=rule))
        return target

    def rule_prim(self, fn, args, keywords, node):
        while getattr(fn, "thunkgrad_policy", None) is not None:   # @differentiable
            fn = fn.__wrapped__
        label = label_of(fn)
        self.refuse_masked(fn, node)
        if isinstance(fn, type) and record_rule(fn) is None:    # MLP(W, b): its __init__
            fn = constructor_of(fn, object_builder) or fn
        rule = rule_for(fn) or method_rule(fn) or record_rule(fn) or \
            self.opaque_rule(fn, label, node)
        if rule is None or rule.kind != "nondiff":
            self.refuse_starred(Prim("rule", label), node)
        if rule is not None:
            try:
                prim = from_rule(rule, args, keywords, label)
            except TypeError as exc:
                message, hint = rule_arguments(rule, label, exc)
                raise self.src.error(message, node, hint=hint) from None
            prim.site = node
            prim.opaque = rule.kind == "nondiff" and rule.fn is fn and rule_for(fn) is None
            return prim
        if callable(fn) and getattr(fn, "__code__", None) is not None:
            fn = _named_varargs(fn, args)
            self.norm.callees.append(fn)
            prim = Prim("call", label, fn=fn, args=self.by_position(fn, args, keywords, node))
            prim.operands = variadic_operands(fn, args, keywords)   # reasons.py refuses them
            prim.site = node
            func = getattr(node, "func", None)
            prim.called_as = func.id if isinstance(func, gast.Name) else None
            return prim
        name = getattr(fn, "__name__", "fn")
        raise self.src.error(
            f"{label} has no derivative rule and no Python source to compile", node,
            hint=f"register a rule: `@rrule({name})` over `def {name}_rule(x): "
                 f"return {name}(x), lambda g: (Thunk(lambda: unthunk(g) * <derivative>),)`")

    def opaque_rule(self, fn, label, node):
        """The no-derivative rule of a library function whose source is not compiled
        (None for others); a call that hides what it reads or writes is refused."""
        hint = unsafe_call_hint(fn)
        if hint is not None:
            raise self.src.error(f"{label}() reads or changes state the generated code "
                                 "cannot follow", node, hint=hint)
        if getattr(fn, "thunkgrad_block", None) or \
                isinstance(fn, type) and fn.__module__ != "builtins":
            # a try statement's function (frontend/block_function.py), or a class called with values not being differentiated builds a constant
            # (`np.errstate(...)`, a timer); one given such a value is refused
            return runtime.registry.Rule(fn, "nondiff", why=runtime.NONE)
        if isinstance(getattr(fn, "__self__", None), (list, dict, set)) and \
                isinstance(fn, types.BuiltinMethodType):
            # `LOG.append("start")` on a module-level list: runs in the forward sweep
            # as in the primal; a value being differentiated given to it is refused
            return runtime.registry.Rule(fn, "nondiff", why=runtime.NONE)
        return opaque_library_rule(fn)

    def refuse_masked(self, fn, node):
        """np.ma skips masked entries, the rules for plain arrays do not: refuse it."""
        if (getattr(fn, "__module__", None) or "").startswith("numpy.ma"):
            raise self.src.error(
                f"masked arrays (np.ma.{fn.__name__}) are not supported: the derivative "
                "rules would give masked entries a gradient", node,
                hint="zero the masked entries (`np.where(mask, 0.0, x)`) or select the "
                     "others (`x[~mask]`)")

    def by_position(self, fn, args, keywords, node):
        """Call atoms in the callee's parameter order (its pullback's order)."""
        signature = inspect.signature(fn, follow_wrapped=False)   # a wrapper's own
        try:
            bound = signature.bind(*args, **keywords)
        except TypeError as exc:
            raise self.src.error(f"bad arguments for {fn.__name__}(): {exc}", node) from None
        params = [p for p in signature.parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
        return [bound.arguments.get(p.name, const(None)) for p in params]


def _named_varargs(fn, args):
    """A helper whose `*args` this call gives a fixed number of values, compiled with
    them as named parameters (frontend/varargs.py); else fn itself."""
    if any(isinstance(a, gast.Starred) for a in args):
        return fn
    return with_varargs(fn, len(args))


def variadic_operands(fn, args, keywords):
    """(`*xs[k]` or `**kw[name]`, atom) for the arguments a callee's `*args`/`**kwargs`
    take: its compiled pullback answers for named parameters only."""
    bound = inspect.signature(fn, follow_wrapped=False).bind(*args, **keywords)
    out = []
    for param in inspect.signature(fn, follow_wrapped=False).parameters.values():
        value = bound.arguments.get(param.name)     # absent when nothing lands there
        if value is None:
            continue
        if param.kind is param.VAR_POSITIONAL:
            out += [(f"*{param.name}[{k}]", atom) for k, atom in enumerate(value)]
        elif param.kind is param.VAR_KEYWORD:
            out += [(f"**{param.name}[{key!r}]", atom) for key, atom in value.items()]
    return out


def _constant_arguments(call):
    """Whether a call's arguments are literals (so none is being differentiated, and
    the ndarray rule's branch of a dispatch can never be refused)."""
    values = call.args + [kw.value for kw in call.keywords]
    return all(isinstance(v, gast.Constant) or isinstance(v, gast.UnaryOp) and
               isinstance(v.operand, gast.Constant) or isinstance(v, gast.Tuple) and
               _constant_arguments(gast.Call(func=None, args=v.elts, keywords=[]))
               for v in values)


def _copied(node):
    """A statement's own copy of a call written once but emitted in two branches."""
    return copy.deepcopy(node)
