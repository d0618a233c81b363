"""Stage 6, reverse (assembly): the rule's def around the two sweeps.

    def f(W, x):                 def f_rrule(W, x):
        ...                 ->       <forward sweep, tape pushes>
        return y                     def pullback(dy, *, <snapshot>):
                                         <backward sweep>; return (dW, dx)
                                     return y, pullback
"""
import copy

import gast

from ..analysis.accumulation import Form, State
from ..ir import generated as gen
from ..ir import statements as ir
from ..ir.lower_gast import to_gast
from ..ir.typed_names import typed_statements
from ..ir.nodes import const, load, names_below
from .reverse import Reverser


class Sweeps:
    """Both sweeps, typed (ir/statements.py, ir/generated.py): `forward` (the prelude
    comes when lowered: it depends on the snapshot), `backward` (the pullback's body,
    which the optimiser's typed phase rewrites in place) and the pullback's `seed`."""

    def __init__(self, forward, backward, seed):
        self.forward, self.backward, self.seed = forward, backward, seed


def build_sweeps(ctx, output):
    """The rule's two sweeps, typed (`Sweeps`), for `lower_sweeps`."""
    typed = ctx.typed           # ir/statements.py, built before stage 5: what the sweeps walk
    reverser = Reverser(ctx, typed)
    state = State()
    seed = ctx.adjoint(output) if output else ctx.names.reserve("dout")
    if output and ctx.activity.is_active(output):
        # grad, value_and_grad and vjp (consumed) pass a forced seed (api._materialised)
        state[seed] = Form("no", not ctx.consumed, False)
        reverser.seed = (seed, state[seed])     # (its entries ctx.dense: values)
    backward = reverser.list_sweep.list_copies() + reverser.backward(typed[:-1], state)
    if output in reverser.lists and ctx.activity.is_active(output):
        # a returned list's cotangent may come as one array (np.sum(helper(x)) in the
        # caller): entries again, as the appends' backward sweep pops them
        backward.insert(0, gen.ListCotangent(seed, output))
    forward = reverser.forward(typed)
    results = []
    for w in ctx.wrt:
        d = ctx.adjoint(w)
        results.append(load(d) if state.form(d).zero != "yes" else const(None))
        if state.form(d).zero == "maybe":
            reverser.maybe_read.add(d)
    return Sweeps(forward, _pullback_body(ctx, reverser, seed, backward, results), seed)


def lower_sweeps(ctx, sweeps):
    """def f_rrule(params): forward; def pullback(d_out, *, snapshot): backward; return:
    each sweep lowered once (ir/lower_gast.py), the pullback first (the prelude reads
    its snapshot)."""
    made = {s.target for s in typed_statements(sweeps.backward) if isinstance(s, gen.ProductSum)}
    pullback = _pullback_def(ctx, sweeps.seed, to_gast(ctx.src, sweeps.backward, ctx.names),
                             made)
    forward = to_gast(ctx.src, _prelude(ctx) + sweeps.forward, ctx.names)
    return gast.FunctionDef(name=ctx.rrule_name, args=_rrule_args(ctx),
                            body=forward[:-1] + [pullback, forward[-1]], decorator_list=[],
                            returns=None, type_comment=None, type_params=[])


def _rrule_args(ctx):
    """The rule's parameters: the user's (*args/**kwargs: data, taken as given)."""
    user = ctx.src.node.args
    kwonly = [a.id for a in user.kwonlyargs]
    params = [gast.Name(id=p, ctx=gast.Param(), annotation=None, type_comment=None)
              for p in ctx.params]
    slashed = getattr(ctx.src, "positional_only", 0)     # `def f(x, /, y)`: x stays so
    return gast.arguments(args=params[slashed:],
                          posonlyargs=params[:slashed], vararg=copy.copy(user.vararg),
                          kwonlyargs=[gast.Name(id=k, ctx=gast.Param(), annotation=None,
                                                type_comment=None) for k in kwonly],
                          kw_defaults=[None] * len(kwonly), kwarg=copy.copy(user.kwarg),
                          defaults=[])


def _restored(ctx, body, made=frozenset()):
    """Primal names the backward sweep rebinds (tape pops, loop headers); `made`: names
    the optimiser's typed phase bound in it (BatchProducts' batches), no primal."""
    stored, loaded = set(), set()
    for n in names_below(gast.Module(body=body, type_ignores=[])):
        (stored if type(n.ctx) is gast.Store else loaded).add(n.id)
    adjoints = set(ctx.adjoints.values()) | set(ctx.temps.values()) | set(made)
    # the compiler's throwaway loop target, and its tape reader (`pop = tape_reader(tape)`)
    ignored = {ctx.names.roles.get("_"), ctx.names.roles.get("pop")}
    if "_" not in loaded:
        ignored.add("_")                          # the user's, when the sweep never reads it
    return sorted(n for n in stored if n not in adjoints and n not in ignored)


def _pullback_body(ctx, reverser, seed, backward, results):
    """The pullback's typed body: the tape reader, None for adjoints a path may leave
    unbound, the backward sweep, `return (dW, dx)`."""
    body = []
    if ctx.uses_tape:
        body.append(gen.TapeReader(ctx.end_comment("last in, first out; the tape itself is kept")))
    zeros = sorted(reverser.maybe_read - {seed})
    if zeros:
        body.append(gen.Reset(*zeros))
    body += backward
    body.append(ir.Return(gast.Return(value=gast.Tuple(elts=results, ctx=gast.Load()))))
    return body


def _pullback_def(ctx, seed, body, made=frozenset()):
    """def pullback(d_out, *, snapshot): body (gast), the snapshot the names it rebinds
    (`made`: the names the optimiser bound there, not restored)."""
    snapshot = _restored(ctx, body, made)
    ctx.snapshot = snapshot
    kwonly = [gast.Name(id=n, ctx=gast.Param(), annotation=None, type_comment=None)
              for n in snapshot]
    args = gast.arguments(args=[gast.Name(id=seed, ctx=gast.Param(), annotation=None,
                                          type_comment=None)],
                          posonlyargs=[], vararg=None, kwonlyargs=kwonly,
                          kw_defaults=[load(n) for n in snapshot], kwarg=None, defaults=[])
    return gast.FunctionDef(name=ctx.names.name("pullback"), args=args, body=body,
                            decorator_list=[],
                            returns=None, type_comment=None, type_params=[])


def _prelude(ctx):
    """tape = [] and None for names the tape or the snapshot may read before binding
    (typed: `TapeStart`, `Reset`)."""
    out = []
    if ctx.uses_tape:
        out.append(gen.TapeStart())
    user = ctx.src.node.args                  # keyword-only and * parameters are bound too
    given = set(ctx.params) | {a.id for a in user.kwonlyargs} | \
        {a.id for a in (user.vararg, user.kwarg) if a is not None}
    unbound = [n for n in ctx.snapshot if n not in given]
    if unbound:
        out.append(gen.Reset(*unbound))
    return out


__all__ = ["build_sweeps", "lower_sweeps"]
