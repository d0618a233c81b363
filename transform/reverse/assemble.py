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
from ..ir.lower_gast import to_gast
from ..ir.nodes import const, load, names_below
from ..ir.typed import typed_form
from .reverse import Reverser


def build_rrule(ctx, body, output):
    """def f_rrule(params): forward; def pullback(d_out, *, snapshot): backward; return."""
    reverser = Reverser(ctx, body)
    typed = typed_form(ctx.src, body)           # ir/statements.py: what the sweeps walk
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
        backward[:0] = reverser.lowered([gen.ListCotangent(seed, output)])
    forward = to_gast(ctx.src, reverser.forward(typed), ctx.names)
    results = []
    for w in ctx.wrt:
        d = ctx.adjoint(w)
        results.append(load(d) if state.form(d).zero != "yes" else const(None))
        if state.form(d).zero == "maybe":
            reverser.maybe_read.add(d)
    pullback = _pullback_def(ctx, reverser, seed, backward, results)
    prelude = _prelude(ctx, reverser)
    forward = prelude + forward[:-1] + [pullback, forward[-1]]
    user = ctx.src.node.args                  # *args/**kwargs: data, taken as given
    kwonly = [a.id for a in user.kwonlyargs]
    params = [gast.Name(id=p, ctx=gast.Param(), annotation=None, type_comment=None)
              for p in ctx.params]
    slashed = getattr(ctx.src, "positional_only", 0)     # `def f(x, /, y)`: x stays so
    args = gast.arguments(args=params[slashed:],
                          posonlyargs=params[:slashed], vararg=copy.copy(user.vararg),
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
    adjoints = set(ctx.adjoints.values()) | set(ctx.temps.values())
    ignored = {ctx.names.roles.get("_")}          # the compiler's throwaway loop target
    if "_" not in loaded:
        ignored.add("_")                          # the user's, when the sweep never reads it
    names = stored
    return sorted(n for n in names if n not in adjoints and n not in ignored)


def _pullback_def(ctx, reverser, seed, backward, results):
    snapshot = _restored(ctx, reverser, backward)
    ctx.snapshot = snapshot
    typed = []
    if ctx.uses_tape:
        typed.append(gen.TapeReader(ctx.end_comment("last in, first out; the tape itself is kept")))
    zeros = sorted(reverser.maybe_read - {seed})
    if zeros:
        typed.append(gen.Reset(*zeros))
    body = reverser.lowered(typed) + backward
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
        out.extend(reverser.lowered([gen.TapeStart()]))
    user = ctx.src.node.args                  # keyword-only and * parameters are bound too
    given = set(ctx.params) | {a.id for a in user.kwonlyargs} | \
        {a.id for a in (user.vararg, user.kwarg) if a is not None}
    unbound = [n for n in ctx.snapshot if n not in given]
    if unbound:
        out.append(gast.Assign(targets=[gast.Name(id=n, ctx=gast.Store(), annotation=None,
                                                  type_comment=None) for n in unbound],
                               value=const(None), type_comment=None))
    return out


__all__ = ["build_rrule"]
