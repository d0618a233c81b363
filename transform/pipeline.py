"""The compiler, top to bottom: eight stages, one package each.

    1 parse      frontend/parse.py       the function's source as a gast tree, names resolved
    2 check      frontend/check.py,      unsupported syntax and unfollowable writes refused
                 alias/
    3 normalize  lowering/normalize*.py  one operation per statement, each tagged with a Prim
    4 control    lowering/control.py     structured jumps, loop trip counters
    5 analyze    analysis/               activity, reasons, shape classes, tape contents, views
    6 reverse    reverse/                forward and backward sweeps; the accumulation
                                         decisions (analysis/accumulation.py) as it walks
    7 optimize   optimize/               small rewrites of the generated rule
    8 emit       emit/                   definite-assignment check, source text, compiled

docs/architecture.md says what each stage needs and provides. Everything the stages
share is one declared record, compilation.Compilation.
"""
import gc

import gast

from .analysis.activity import (assignment_counts, first_definitions, saved_names,
                                target_names)
from .analysis.metadata import analyze_activity
from .ir.typed import stale, typed_form
from .analysis.shapes import ShapeClasses, class_of_key, shape_of
from .analysis.complex_seeds import holds_complex_value
from .analysis.complex_reach import check_complex_reach
from .analysis.joins import cut_joins
from .analysis.unchanging import read_after_loop, unchanging
from .analysis.views import aliased_stores, owned_views
from .compilation import Compilation
from .emit.bound_check import check_pullback
from .emit.emit import emit
from .errors import TransformError
from .frontend.super_calls import rewrite_super_calls
from .frontend.check import check_function
from .frontend.checkpointed import checkpointed_loops
from .frontend.checkpointed_auto import memory_limit_loops
from .frontend.checkpointed_forward import unmark_checkpointed_loops
from .frontend.checkpointed_online import online_loops, unmark_while_loops
from .frontend.data_sugar import desugar_data
from .frontend.desugar import desugar
from .frontend.parse import parse_function
from .ir.nodes import lambda_params, statements
from .ir.vocabulary import Vocabulary, user_names
from .lowering.control import lower_control
from .lowering.normalize import normalize_function
from .lowering.cholesky_solves import triangular_solves
from .lowering.logaddexp_numbers import logaddexp_numbers
from .optimize.optimize import PLAIN_PASSES, finish, optimize_typed
from .reverse.assemble import build_sweeps, lower_sweeps
from .reverse.plain_rule import plain_rule


def compile_function(fn, wrt, policy="loop", explain=False, consumed=False, signature=None,
                     varied=None, materialised=False, dense=(), lowering="gast"):
    """Compile `fn` into the source text and globals of `<name>_rrule`.

    consumed: the caller forces every cotangent the pullback returns (grad, vjp),
    so straight-line contributions need not be deferred. signature: what the arguments
    it will be called with say about shapes (one `shapes.shape_key` each), or None.
    varied: the parameters that carry a derivative where this rule is called (a callee
    compiled for one call site), if fewer than wrt; the pullback still answers for wrt.
    materialised: a callee called inside a loop body (or from such a callee) under the
    "loop" policy: its pullback returns computed cotangents, never Thunks, so the
    caller's loop creates none through the call.
    dense: positions of fn's returned tuple whose cotangents the caller promises to pass
    as values, never None (a checkpointed loop's step, called by its driver): the
    backward sweep then needs no None checks for them.
    lowering: "gast" (the rule and its pullback) or "plain" (one function, no closures:
    reverse/plain_rule.py).
    """
    # The compiler allocates many small AST nodes and frees them all at the end; the
    # cycle collector's passes over a large heap (NumPy, peers' modules) would cost
    # more than the compile itself.
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _compile(fn, wrt, policy, explain, consumed, signature, varied, materialised,
                        dense=dense, lowering=lowering)
    finally:
        if enabled:
            gc.enable()


def _compile(fn, wrt, policy, explain, consumed, signature, varied=None, materialised=False,
             limit_marks=True, dense=(), lowering="gast"):
    """A function memory_limit marked loops of that fails to compile so (the loop under
    the `if` of its taped fallback, transform/frontend/checkpointed_auto.py) is compiled
    again unmarked: the limit is best effort, never a new error."""
    plain, _, part = lowering.partition("/")        # "plain/split": a split callee's
    ctx = Compilation(fn, wrt, policy, explain, consumed, signature,
                      materialised=materialised and policy == "loop", limit_marks=limit_marks,
                      dense=tuple(dense), lowering=plain, part=part)
    try:
        return _stages(ctx, varied)
    except TransformError as exc:
        if not ctx.limit_marked:
            raise
        why = exc.one_line()
    return _compile(fn, wrt, policy, explain, consumed, signature, varied, materialised,
                    limit_marks=why, dense=dense, lowering=lowering)


def _stages(ctx, varied):
    wrt = ctx.wrt
    _front_end(ctx)                                             # 1 parse, 2 check
    body = _lower(ctx)                                          # 3 normalize, 4 control
    output = body[-1].value.id if isinstance(body[-1].value, gast.Name) else None
    _analyze(ctx, body, output, wrt if varied is None else varied)      # 5 analyze
    sweeps = build_sweeps(ctx, output)                          # 6 reverse (typed)
    _optimize_typed(ctx, sweeps)                                # 7 optimize: typed phase
    if ctx.lowering == "plain":                                 #   (or the second lowering)
        return _emit_plain(ctx, plain_rule(ctx, sweeps))
    rrule = lower_sweeps(ctx, sweeps)                           #   (lowered to gast)
    finish(rrule, ctx.names)                                    #   (`pass`, `del`: lowering's end)
    check_pullback(rrule, set(ctx.adjoints.values()))           # 8 emit
    return emit(ctx, rrule)


def _emit_plain(ctx, made):
    """The plain function's rule, or a split callee's two halves' (a pair: one
    compilation, each half emitted as its own rule, `ctx.part` saying which)."""
    if ctx.part != "split":
        return emit(ctx, made)
    halves = []
    for part, name, half in made:
        ctx.part, ctx.rrule_name = part, name
        halves.append(emit(ctx, half))
    return tuple(halves)


def _front_end(ctx):
    """Stages 1-2: ctx.src, ctx.params, ctx.names, ctx.rrule_name."""
    ctx.src = src = parse_function(ctx.fn)
    rewrite_super_calls(src)               # super().f(x): f(self, x), self differentiated
    src.param_kinds = _param_kinds(src.params, ctx.signature)
    src.has_signature = ctx.signature is not None   # param_kinds says what it can
    if ctx.forward:                          # no tape to bound: a plain loop
        unmark_checkpointed_loops(src)
        unmark_while_loops(src)
    else:
        if ctx.limit_marks is True:              # grad(..., memory_limit=): loops marked
            ctx.limit_marked = memory_limit_loops(src, ctx.explain)
        elif ctx.limit_marks:                    # (the retry: why it is unmarked)
            src.limit_notes = [f"memory_limit: every loop taped, the function with its "
                               f"loops marked did not compile: {ctx.limit_marks}"]
        online_loops(src, ctx.explain)          # marked while loops, break and continue
        checkpointed_loops(src, ctx.explain)  # a marked loop: a call of the driver, its step
    # consumed: grad/vjp called on fn, not a callee; a checkpointed loop's step copies
    # the carries it writes into too (the driver reads its results, not its arguments)
    desugar(src, entry=ctx.consumed or getattr(src, "copies_arguments", False))
    desugar_data(src)                    # f(*xs), xs.pop(), d.update(...)
    check_function(src)
    ctx.params = src.params
    kwonly = [a.id for a in src.node.args.kwonlyargs]
    unknown = [w for w in ctx.wrt if w not in src.params and w not in kwonly]
    if unknown:
        raise TypeError(f"{src.name}() has no parameter named {unknown[0]!r}")
    used, bound = user_names(src.node)
    ctx.names = Vocabulary(used, bound, src.lookup_global)
    src.made_names = ctx.names.made      # a temporary `t1` is local, whatever the module's t1
    ctx.loop_pass.names = ctx.names
    ctx.rrule_name = ctx.names.reserve(src.name + "_rrule")


def _lower(ctx):
    """Stages 3-4: the normalized body, jumps structured, callees' pullbacks named."""
    body, _ = normalize_function(ctx.src, ctx.names)
    body = lower_control(body, ctx.names)
    triangular_solves(body, ctx.names, ctx.src.node)
    logaddexp_numbers(body, ctx.names)
    _name_pullbacks(body, ctx.names)
    return body


def _analyze(ctx, body, output, varied):
    """Stage 5: activity, reasons, counts, shape classes, the tape's contents, views,
    on the typed form of the lowered body (`ctx.typed`, ir/typed.py), which both modes
    then walk."""
    # keyword-only parameters are bound on entry too: a body's `y = 2 * y` overwrites
    # the argument (saved if the backward sweep reads it), not a first definition
    params = ctx.src.params + [a.id for a in ctx.src.node.args.kwonlyargs]
    ctx.typed = typed_form(ctx.src, body)
    analyze_activity(ctx, body, output, varied)     # `u.shape` an array's if refused
    if stale(ctx.typed):                # a statement rewritten as a nondiff check
        ctx.typed = typed_form(ctx.src, body)
    typed = ctx.typed
    ctx.counts = assignment_counts(typed)
    known = {p: class_of_key(k) for p, k in zip(ctx.src.params, ctx.signature or ())
             if k is not None}
    ctx.shapes = ShapeClasses(typed, params, known)
    ctx.shapes.may_complex = ctx.shapes.may_complex or ctx.complex_values or \
        holds_complex_value(ctx.src)
    if ctx.shapes.may_complex:
        check_complex_reach(ctx, typed)
    ctx.shapes.settle_products(typed)
    cut_joins(typed, ctx.shapes)
    bound = [*params, *sorted(lambda_params(ctx.src.node) - set(params))]  # (keyword-only:
    ctx.first_defs = first_definitions(typed, bound)     # rebinding one saves it; fuzz)
    saved = saved_names(typed, ctx.activity, bound, ctx.shapes)
    ctx.saved, ctx.shape_saved = unchanging(typed, ctx.shapes, *saved)
    ctx.owned_views = owned_views(typed, ctx.activity, ctx.shapes)
    ctx.aliased_stores = aliased_stores(typed, ctx.activity, ctx.shapes)
    ctx.saved = read_after_loop(typed, ctx, ctx.saved)


def _optimize_typed(ctx, sweeps):
    """Stage 7's typed phase, on the typed pullback body before it is lowered."""
    facts = optimize_typed(sweeps.backward, params=frozenset({sweeps.seed}),
                           passes=PLAIN_PASSES if ctx.lowering == "plain" else None,
                           adjoints=frozenset(ctx.adjoints.values()), names=ctx.names,
                           shape_of=lambda name: shape_of(ctx.shapes.cls.get(name)),
                           forward=sweeps.forward, uses_tape=ctx.uses_tape,
                           literal_terms=ctx.literal_terms, temporaries=ctx.foldable(),
                           commented={id(c) for c in ctx.comments if not isinstance(c, str)},
                           same_shape=ctx.same_shape,
                           primal_of={d: p for p, d in ctx.adjoints.items()},
                           real_arguments=ctx.shapes.stood_in or ctx.shapes.unguarded)
    ctx.uses_tape = facts.uses_tape         # no save left: no tape (the prelude's)


def _param_kinds(params, signature):
    """Parameter -> "array" or "list" where the argument shapes say so (an alias check
    then knows `p += v` on it is in place); "scalar" for shape (), a float or a 0-d array."""
    kinds = {}
    for name, key in zip(params, signature or ()):
        if key and key[0] == "items":
            kinds[name] = "list"
        elif key and key[0] == "parts":
            continue                        # a tuple or list of arrays: no kind claimed
        elif key:
            kinds[name] = "array"
        elif key == ():
            kinds[name] = "scalar"
    return kinds


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


__all__ = ["compile_function", "Compilation", "target_names"]
