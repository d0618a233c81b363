"""The compilation state: one declared, typed record that the stages fill in order.

    ctx = Compilation(fn, ("W", "b"), "loop")      # the request
    ctx.src, ctx.names = ...                        # 1-2 parse, check
    ctx.activity, ctx.shapes, ... = ...             # 5 analyze
    ctx.adjoint("h")  ->  "dh"                      # 6 reverse: names, comments, globals

Every field is declared below, grouped by the stage that sets it; `slots=True` makes
setting an undeclared attribute an AttributeError, so no stage can hand another a value
through an attribute nobody declared.
"""
from __future__ import annotations

import keyword
from dataclasses import dataclass, field

import gast

from .analysis.accumulation import LoopPass
from .analysis.shapes import shape_of
from .ir.comments import marker
from .ir.nodes import free_names, load
from .public.plain_split_calls import split_arguments, split_callee
from .public.run_time_rules import MethodRule, callee_rule


@dataclass(eq=False, slots=True)
class Compilation:
    """Everything the stages share for one (function, wrt, policy)."""

    # ---- the request -------------------------------------------------------------
    fn: object                      # the user's function
    wrt: tuple                      # the parameters differentiated (names)
    policy: str                     # "loop", "eager", "flat" or "nested"
    explain: bool = False           # comment each accumulation decision
    consumed: bool = False          # the caller forces every cotangent (grad, vjp)
    signature: tuple | None = None  # one shapes.shape_key per argument, or None
    materialised: bool = False      # a callee in a caller's loop: no Thunks (loop policy)
    forward: bool = False           # forward mode: a checkpointed loop stays a plain loop
    limit_marks: object = True      # memory_limit's loops marked (else its retry's reason)
    limit_marked: int = 0           # how many loops memory_limit marked
    forward_variant: str = "pair"   # forward mode's output: forward_pipeline.compile_forward
    complex_values: bool = False    # forward mode: complex arguments or tangents (jvp's)
    dense: tuple = ()               # returned tuple's entries whose cotangents come as values
    lowering: str = "gast"          # "gast" (rrule, pullback) or "plain" (ir/lower_plain.py)
    part: str = ""                  # plain: "forward" or "backward" of a split callee
    # ---- 1 parse, 2 check --------------------------------------------------------
    src: object = None              # frontend.parse.SourceFunction
    params: list = None             # the positional parameters' names
    names: object = None            # ir.vocabulary.Vocabulary: every generated name
    rrule_name: str = None          # `<fn>_rrule`
    # ---- 5 analyze ---------------------------------------------------------------
    typed: list = None              # the lowered body's typed form (ir/typed.py): both modes'
    activity: object = None         # analysis.activity.Activity: varied, useful, active
    counts: dict = None             # name -> assignments in the normalized body
    shapes: object = None           # analysis.shapes.ShapeClasses
    first_defs: dict = None         # name -> its first defining statement
    saved: set = None               # names the tape records
    shape_saved: set = None         # names the tape records only the shape of
    owned_views: set = field(default_factory=set)   # views generated code copies
    aliased_stores: set = field(default_factory=set)  # stores written into a copy
    # ---- 6 reverse ---------------------------------------------------------------
    loop_pass: LoopPass = field(init=False)   # the accumulation decisions, per policy
    globals: dict = field(default_factory=dict)     # generated module's globals: rules
    comments: list = field(default_factory=list)    # marked comments, rendered at emit
    uses_tape: bool = False         # the forward sweep pushes onto a tape
    adjoints: dict = field(default_factory=dict)    # primal name -> its adjoint's name
    temps: dict = field(default_factory=dict)       # ("cots"|"self"|..., name) -> name
    snapshot: list = None           # primal names the pullback rebinds (keyword defaults)
    literal_terms: list = field(default_factory=list)   # template terms given a literal
    split_backward: dict = field(default_factory=dict)  # plain: a split callee's halves
    callee_guards: list = field(default_factory=list)   # plain: the split callees' guards
    checks_real: bool = False       # a split half: its forward checks real arguments
    # ---- 8 emit ------------------------------------------------------------------
    line_sources: list = None       # per generated line, the node it came from
    header_lines: int = 0           # lines emit puts before the rule's def

    def __post_init__(self):
        self.wrt = tuple(self.wrt)
        self.loop_pass = LoopPass(self.policy, self.explain, self.consumed, self.materialised)

    def split_call(self, prim, varied, call):
        """Under the plain lowering, a compiled callee's forward half's global (its
        backward's in `split_backward`), or None: its rule is called
        (public/plain_split_calls.py)."""
        if call is None or prim.kind != "call" or getattr(prim, "method", None) or \
                getattr(prim, "receiver_first", False):
            return None
        args = self.split_arguments(prim, call)
        if args is None:
            return None
        signature = self._call_signature(args)
        key = ("split", id(prim.fn), varied, signature)
        if key not in self.temps:
            halves = split_callee(prim, self.fn, self.policy, varied, signature)
            self.temps[key] = None if halves is None else self._split_globals(prim, halves)
        return self.temps[key]

    def split_arguments(self, prim, call):
        """A split call's arguments, by position in the callee's order (a keyword
        call's too), or None: it keeps the rule (public/plain_split_calls.py)."""
        return split_arguments(prim.fn, call)

    def _call_signature(self, args):
        """The shapes stage 5 knows of a split call's arguments, as a `signature_of`
        (its halves are specialised to them, as the callee's rule is at run time): an
        array's concrete shape; () only for a float (a literal, or a parameter this
        compilation was specialised to as one: an int is no float); else None."""
        own = dict(zip(self.src.params, self.signature or ()))
        keys = []
        for a in args:
            shape = shape_of(self.shapes.of(a)) if self.shapes is not None else None
            if shape == ():
                floated = isinstance(a, gast.Constant) and type(a.value) is float or \
                    isinstance(a, gast.Name) and own.get(a.id) == ()
                shape = () if floated else None
            keys.append(shape)
        return None if keys.count(None) == len(keys) else tuple(keys)

    def _split_globals(self, prim, halves):
        forward = self.names.reserve(_callee_name(prim) + "_forward")
        backward = self.names.reserve(_callee_name(prim) + "_backward")
        self.globals[forward], self.globals[backward] = (h.rrule for h in halves)
        self.split_backward[forward] = backward
        self.callee_guards.extend(h.guards for h in halves)
        return forward

    # ---- names ------------------------------------------------------------
    def adjoint(self, name):
        if name not in self.adjoints:
            self.adjoints[name] = self.names.reserve("d" + name)
        return self.adjoints[name]

    def foldable(self):
        """The normalizer's temporaries and their adjoints: names the optimizer may fold."""
        temps = self.names.temporaries
        return temps | {self.adjoints[t] for t in temps if t in self.adjoints}

    def zero_buffers(self):
        """adjoint -> parameter, for parameters whose shape the signature fixes."""
        return {self.adjoint(p): p for p in self.params
                if self.activity.is_active(p) and shape_of(self.shapes.cls.get(p)) is not None
                and p in self.wrt}

    def same_shape(self, a, b):
        """Whether names a and b certainly always have the same shape."""
        return a == b or self.shapes.same(load(a), b)

    def temp(self, key):
        if key not in self.temps:
            base = {"cots": "{}_cots", "self": "{}_own", "index": "k", "part": "{}_part"}[key[0]]
            self.temps[key] = self.names.new(base.format(key[1]) if "{}" in base else base)
        return self.temps[key]

    def assign_count(self, name):
        # parameters (keyword-only ones too) are bound once on entry
        kwonly = {a.id for a in self.src.node.args.kwonlyargs}
        return self.counts.get(name, 0) + (1 if name in self.params or name in kwonly else 0)

    def captures(self, expr):
        """Local names an expression reads (a Thunk captures them by value)."""
        return sorted(n for n in free_names(expr) if n in self.local_names())

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

    def rule_global(self, prim, in_loop=False, call=None):
        """A global name in the generated module for a custom rule or compiled callee;
        a method's rule knows its call site (prim.site) for the errors it raises. A
        callee called in a loop body (or by a materialised callee, or by the plain
        lowering) is compiled materialised: its pullback creates no Thunks (the loop
        pass's promise)."""
        method = getattr(prim, "method", None)
        # argument positions carrying a derivative here: the callee is compiled for them
        varied = tuple(k for k, a in enumerate(prim.args)
                       if isinstance(a, gast.Name) and a.id in self.activity.varied)
        site = getattr(prim, "site", None) if method else None
        split = self.split_call(prim, varied, call) if self.lowering == "plain" \
            else None
        if split is not None:
            return split
        # a recursive call too: a deferred pullback per level would chain thunks whose
        # forcing takes several frames per level (the recursion's depth would be a third)
        recursive = getattr(prim, "fn", None) is self.fn
        # the plain lowering's callees too: their cotangents arrays, not thunks
        eager = self.policy == "loop" and (in_loop or self.materialised or recursive
                                           or self.lowering == "plain")
        key = ("rule", method or id(prim.fn), varied, getattr(site, "lineno", None), eager)
        if key not in self.temps:
            if method:
                name = self.names.reserve(f"{_identifier(method)}_method_rrule")
                # the call site, for errors raised when the method is reached at run time
                where = self.src.error("", site) if site is not None else None
                self.globals[name] = MethodRule(method, self.policy, varied, where, eager)
            else:
                name = self.names.reserve(_callee_name(prim) + "_rrule")
                self.globals[name] = prim.rule.call_custom if prim.kind == "custom" \
                    else callee_rule(prim.fn, self.policy, varied, eager)
            self.temps[key] = name
        return self.temps[key]


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


__all__ = ["Compilation"]
