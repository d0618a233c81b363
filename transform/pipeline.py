"""The compiler, top to bottom: a short flat list of stages.

    parse -> check -> normalize -> control -> analyze -> reverse -> optimize -> emit
"""
import copy
import gc
import keyword

import gast

from . import emit, optimize
from .activity import (Activity, assignment_counts, first_definitions, saved_names,
                       target_names)
from .bound_check import check_pullback
from .check import check_function
from .desugar import desugar
from .comments import marker
from .control import lower_control
from .loop_pass import LoopPass
from .names import const, load, names_below, names_in, statements
from .views import owned_views
from .vocabulary import Vocabulary, user_names
from .normalize import normalize_function
from .parse import parse_function
from .reasons import check_reasons
from .reverse import Reverser
from .shapes import ShapeClasses, class_of_key, shape_of


class Compilation:
    """Everything the stages share for one (function, wrt, policy)."""

    def __init__(self, fn, wrt, policy, explain=False, consumed=False):
        self.fn, self.wrt, self.policy, self.explain = fn, tuple(wrt), policy, explain
        self.consumed = consumed
        self.loop_pass = LoopPass(policy, explain, consumed)
        self.globals = {}
        self.comments = []
        self.uses_tape = False
        self.made_thunks = False
        self._adjoints, self._temps = {}, {}

    # ---- names ------------------------------------------------------------
    def adjoint(self, name):
        if name not in self._adjoints:
            self._adjoints[name] = self.names.reserve("d" + name)
        return self._adjoints[name]

    def foldable(self):
        """The normalizer's temporaries and their adjoints: names the optimizer may fold."""
        temps = self.names.temporaries
        return temps | {self._adjoints[t] for t in temps if t in self._adjoints}

    def zero_buffers(self):
        """adjoint -> parameter, for parameters whose shape the signature fixes."""
        return {self.adjoint(p): p for p in self.params
                if self.activity.is_active(p) and shape_of(self.shapes.cls.get(p)) is not None
                and p in self.wrt}

    def same_shape(self, a, b):
        """Whether names a and b certainly always have the same shape."""
        return a == b or self.shapes.same(load(a), b)

    def temp(self, key):
        if key not in self._temps:
            base = {"cots": "{}_cots", "self": "{}_own", "index": "k", "part": "{}_part"}[key[0]]
            self._temps[key] = self.names.new(base.format(key[1]) if "{}" in base else base)
        return self._temps[key]

    def assign_count(self, name):
        return self.counts.get(name, 0) + (1 if name in self.params else 0)

    def captures(self, expr):
        """Local names an expression reads (a Thunk captures them by value)."""
        return sorted(n for n in names_in(expr) if n in self.local_names())

    def local_names(self):
        return {n for n in self.names.used - set(self.globals)
                if not self.names.is_compiler_global(n)}

    def comment(self, stmt):
        """A `# <primal statement>` line; the text is rendered in one batch at emit."""
        self.comments.append(stmt)
        return marker(len(self.comments) - 1)

    def end_comment(self, text):
        """A comment at the end of the previous generated line."""
        self.comments.append(text)
        return marker(len(self.comments) - 1, end=True)

    def note(self, text):
        """A free-text comment line in the generated code."""
        self.comments.append(text)
        return marker(len(self.comments) - 1)

    def line_of(self, node):
        """The line in the user's file a normalized statement came from."""
        line = getattr(node, "origin_line", None) or getattr(node, "lineno", None)
        return self.src.first_line + line - 1 if line else self.src.first_line

    def rule_global(self, prim, stmt=None):
        """A global name in the generated module for a custom rule or compiled callee;
        a method's rule knows its call site (prim.site) for the errors it raises."""
        from .dispatch import MethodRule, callee_rule
        method = getattr(prim, "method", None)
        # argument positions carrying a derivative here: the callee is compiled for them
        varied = tuple(k for k, a in enumerate(prim.args)
                       if isinstance(a, gast.Name) and a.id in self.activity.varied)
        site = getattr(prim, "site", None) if method else None
        key = ("rule", method or id(prim.fn), varied, getattr(site, "lineno", None))
        if key not in self._temps:
            if method:
                name = self.names.reserve(f"{_identifier(method)}_method_rrule")
                # the call site, for errors raised when the method is reached at run time
                where = self.src.error("", site) if site is not None else None
                self.globals[name] = MethodRule(method, self.policy, varied, where)
            else:
                name = self.names.reserve(_callee_name(prim) + "_rrule")
                self.globals[name] = prim.rule.custom if prim.kind == "custom" \
                    else callee_rule(prim.fn, self.policy, varied)
            self._temps[key] = name
        return self._temps[key]


def compile_function(fn, wrt, policy="loop", explain=False, consumed=False, signature=None,
                     varied=None):
    """Compile `fn` into the source text and globals of `<name>_rrule`.

    consumed: the caller forces every cotangent the pullback returns (grad, vjp),
    so straight-line contributions need not be deferred. signature: what the arguments
    it will be called with say about shapes (one `shapes.shape_key` each), or None.
    varied: the parameters that carry a derivative where this rule is called (a callee
    compiled for one call site), if fewer than wrt; the pullback still answers for wrt.
    """
    # The compiler allocates many small AST nodes and frees them all at the end; the
    # cycle collector's passes over a large heap (NumPy, peers' modules) would cost
    # more than the compile itself.
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _compile(fn, wrt, policy, explain, consumed, signature, varied)
    finally:
        if enabled:
            gc.enable()


def _compile(fn, wrt, policy, explain, consumed, signature, varied=None):
    ctx = Compilation(fn, wrt, policy, explain, consumed)
    ctx.signature = signature
    ctx.src = src = parse_function(fn)
    src.param_kinds = _param_kinds(src.params, signature)
    desugar(src, entry=consumed)     # consumed: grad/vjp called on fn itself, not a callee
    check_function(src)
    ctx.params = src.params
    kwonly = [a.id for a in src.node.args.kwonlyargs]
    unknown = [w for w in wrt if w not in src.params and w not in kwonly]
    if unknown:
        raise TypeError(f"{src.name}() has no parameter named {unknown[0]!r}")
    used, bound = user_names(src.node)
    ctx.names = Vocabulary(used, bound, src.lookup_global)
    ctx.loop_pass.names = ctx.names
    ctx.rrule_name = ctx.names.reserve(src.name + "_rrule")
    body, _ = normalize_function(src, ctx.names)
    body = lower_control(body, ctx.names)
    _name_pullbacks(body, ctx.names)
    output = body[-1].value.id if isinstance(body[-1].value, gast.Name) else None
    ctx.activity = Activity(body, wrt if varied is None else varied, output)
    check_reasons(ctx, body)
    ctx.counts = assignment_counts(body)
    known = {p: class_of_key(k) for p, k in zip(src.params, signature or ()) if k is not None}
    ctx.shapes = ShapeClasses(body, src.params, known)
    ctx.first_defs = first_definitions(body, src.params)
    ctx.saved, ctx.shape_saved = saved_names(body, ctx.activity, src.params, ctx.shapes)
    ctx.owned_views = owned_views(body, ctx.activity, ctx.shapes)
    rrule = build_rrule(ctx, body, output)
    optimize.optimize(rrule, ctx.names, made_thunks=ctx.made_thunks, temporaries=ctx.foldable(),
                      same_shape=ctx.same_shape,
                      commented={id(c) for c in ctx.comments if not isinstance(c, str)},
                      shape_of=lambda name: shape_of(ctx.shapes.cls.get(name)),
                      adjoints=frozenset(ctx._adjoints.values()))
    check_pullback(rrule, set(ctx._adjoints.values()))
    return emit.emit(ctx, rrule)


def _param_kinds(params, signature):
    """Parameter -> "array" or "list" where the argument shapes say so (an alias check
    then knows `p += v` on it is in place); "scalar" for shape (), a float or a 0-d array."""
    kinds = {}
    for name, key in zip(params, signature or ()):
        if key and key[0] == "items":
            kinds[name] = "list"
        elif key:
            kinds[name] = "array"
        elif key == ():
            kinds[name] = "scalar"
    return kinds


def build_rrule(ctx, body, output):
    """def f_rrule(params): forward; def pullback(d_out, *, snapshot): backward; return."""
    reverser = Reverser(ctx, body)
    from .loop_pass import State, Form
    state = State()
    seed = ctx.adjoint(output) if output else ctx.names.reserve("dout")
    if output and ctx.activity.is_active(output):
        # grad, value_and_grad and vjp (consumed) pass a forced seed (api._materialised)
        state[seed] = Form("no", not ctx.consumed, False)
    backward = reverser.list_copies() + reverser.backward(body[:-1], state)
    forward = reverser.forward(body)
    results = []
    for w in ctx.wrt:
        d = ctx.adjoint(w)
        results.append(load(d) if state.form(d).zero != "yes" else const(None))
        if state.form(d).zero == "maybe":
            reverser.maybe_read.add(d)
    pullback = _pullback_def(ctx, reverser, seed, backward, results)
    prelude = _prelude(ctx, reverser)
    forward = prelude + forward[:-1] + [pullback, forward[-1]]
    kwonly = [a.id for a in ctx.src.node.args.kwonlyargs]
    user = ctx.src.node.args
    args = gast.arguments(args=[gast.Name(id=p, ctx=gast.Param(), annotation=None,
                                          type_comment=None) for p in ctx.params],
                          posonlyargs=[], vararg=copy.copy(user.vararg),
                          kwonlyargs=[gast.Name(id=k, ctx=gast.Param(), annotation=None,
                                                type_comment=None) for k in kwonly],
                          kw_defaults=[None] * len(kwonly), kwarg=copy.copy(user.kwarg),
                          defaults=[])
    return gast.FunctionDef(name=ctx.rrule_name, args=args, body=forward,
                            decorator_list=[], returns=None, type_comment=None, type_params=[])


def _restored(ctx, reverser, backward):
    """Primal names the backward sweep rebinds (tape pops, loop headers)."""
    stored, loaded = set(), set()
    for n in names_below(gast.Module(body=backward, type_ignores=[])):
        (stored if type(n.ctx) is gast.Store else loaded).add(n.id)
    adjoints = set(ctx._adjoints.values()) | set(ctx._temps.values())
    ignored = {ctx.names.roles.get("_")}          # the compiler's throwaway loop target
    if "_" not in loaded:
        ignored.add("_")                          # the user's, when the sweep never reads it
    names = stored
    return sorted(n for n in names if n not in adjoints and n not in ignored)


def _pullback_def(ctx, reverser, seed, backward, results):
    snapshot = _restored(ctx, reverser, backward)
    ctx.snapshot = snapshot
    body = []
    if ctx.uses_tape:
        body.append(ctx.names.assign("pop", ctx.names.call("tape_reader",
                                                           ctx.names.ref("tape"))))
        body.append(ctx.end_comment("last in, first out; the tape itself is kept"))
    zeros = sorted(reverser.maybe_read - {seed})
    if zeros:
        body.append(gast.Assign(targets=[gast.Name(id=z, ctx=gast.Store(), annotation=None,
                                                   type_comment=None) for z in zeros],
                                value=const(None), type_comment=None))
    body += backward
    body.append(gast.Return(value=gast.Tuple(elts=results, ctx=gast.Load())))
    kwonly = [gast.Name(id=n, ctx=gast.Param(), annotation=None, type_comment=None)
              for n in snapshot]
    args = gast.arguments(args=[gast.Name(id=seed, ctx=gast.Param(), annotation=None,
                                          type_comment=None)],
                          posonlyargs=[], vararg=None, kwonlyargs=kwonly,
                          kw_defaults=[load(n) for n in snapshot], kwarg=None, defaults=[])
    return gast.FunctionDef(name=ctx.names.name("pullback"), args=args, body=body,
                            decorator_list=[],
                            returns=None, type_comment=None, type_params=[])


def _prelude(ctx, reverser):
    """tape = [] and None for names the tape or the snapshot may read before binding."""
    out = []
    if ctx.uses_tape:
        out.append(ctx.names.assign("tape", gast.List(elts=[], ctx=gast.Load())))
    unbound = [n for n in ctx.snapshot if n not in ctx.params]
    if unbound:
        out.append(gast.Assign(targets=[gast.Name(id=n, ctx=gast.Store(), annotation=None,
                                                  type_comment=None) for n in unbound],
                               value=const(None), type_comment=None))
    return out


def _name_pullbacks(body, names):
    """Each call of a compiled callee or custom rule binds `<target>_pullback`: a name
    the user's function does not use (one per target, shared by its assignments)."""
    chosen = {}
    for s in statements(gast.Module(body=body, type_ignores=[])):
        prim = getattr(s, "prim", None)
        if isinstance(s, gast.Assign) and prim is not None and prim.kind in ("custom", "call"):
            target = target_names(s.targets[0])[0]
            if target not in chosen:
                chosen[target] = names.reserve(f"{target}_pullback")
            prim.pullback = chosen[target]


def _identifier(text):
    """`text` if it is a plain identifier (it is pasted into generated source), else
    "fn": a callee's __name__ can be any string ("<lambda>", "x; import os")."""
    ok = isinstance(text, str) and text.isidentifier() and not keyword.iskeyword(text)
    return text if ok else "fn"


def _callee_name(prim):
    """A readable identifier for a callee's rule global: its __name__ when that is an
    identifier, else the name it was called by (`sq` for `sq = lambda v: v * v`)."""
    name = _identifier(getattr(prim.fn, "__name__", None))
    if name == "fn":
        name = _identifier(getattr(prim, "called_as", None))
    return name


__all__ = ["compile_function", "Compilation", "target_names"]
