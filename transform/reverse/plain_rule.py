"""Stage 6's sweeps lowered the plain way (ir/lower_plain.py): one function, no pullback.

    def f(W, x):                 def f_plain(dy, W, x):
        ...                 ->       <forward sweep, tapes indexed by iteration>
        return y                     value = y
                                     <backward sweep, seeded with dy>
                                     return (value, (dW, dx))

The seed comes first, so the user's defaults still line up with their parameters. The
closure lowering's finish does not run (what it rewrites is the gast lowering's output),
nor the optimiser passes PLAIN_PASSES leaves out; this lowering is a second reading of
the typed sweeps beside it.
"""
import gast

from ..analysis.shapes import shape_of
from ..ir import generated as gen
from ..ir.lower_plain import PlainLowering, TapeSlots
from ..ir.plain_tapes import _walk
from ..ir.nodes import assign, const, load
from .assemble import _prelude, _restored, _rrule_args
from .plain_split import split_halves


def plain_rule(ctx, sweeps):
    """The gast `def <f>_plain(seed, params): ...` of the typed sweeps."""
    params = ctx.params + [a.id for a in ctx.src.node.args.kwonlyargs]
    slots = TapeSlots(ctx.names, params)
    slots.collect(sweeps.forward)
    lowering = PlainLowering(ctx.src, ctx.names, slots)
    lowering.splits, lowering.split_names = _splits(ctx, sweeps.forward)
    forward = lowering.block(sweeps.forward[:-1])    # (first: refusals at the user's line)
    backward = lowering.block(sweeps.backward)
    lowering.check_lambdas(forward + backward, params)
    ctx.snapshot = _restored(ctx, backward)      # names to bind (None) before the loops
    forward = lowering.block(_stand_ins(ctx, slots, _prelude(ctx))) + forward
    returned = sweeps.forward[-1].node.value.elts[0]        # `return (y, pullback)`
    if ctx.part == "split":                     # a split callee's halves (plain_split.py)
        return split_halves(ctx, sweeps.seed, forward, returned, backward, params)
    value = ctx.names.reserve("value")
    result = gast.Tuple(elts=[load(value), backward[-1].value], ctx=gast.Load())
    body = forward + [assign(value, returned)] + backward[:-1] + [gast.Return(value=result)]
    ctx.rrule_name = ctx.names.reserve(ctx.src.name + "_plain")
    return gast.FunctionDef(name=ctx.rrule_name, args=_seeded_args(ctx, sweeps.seed),
                            body=body, decorator_list=[], returns=None, type_comment=None,
                            type_params=[])


def _splits(ctx, forward):
    """({the id of a call's prim: its split callee's backward half, None where the rule
    is called} (Compilation.split_call), the pullback names a split call binds). Calls
    binding one name share its pullback's name, split or not, each with its own halves
    (specialised to its arguments' shapes): the backward sweep's CallPullback finds its
    half by its call (`site`), never by the name."""
    halves, names = {}, set()
    for s in _walk(forward):
        if isinstance(s, gen.RruleCall):
            half = ctx.split_backward.get(s.built("rule"))
            if halves.setdefault(id(s.prim), half) != half:     # (one prim, one answer)
                raise ctx.src.error("lowering='plain' cannot split the calls binding "
                                    f"{s.built('pullback')}", ctx.src.node,
                                    hint="use the default lowering (lowering='gast')")
            names |= {s.built("pullback")} if half else set()
    return halves, names


def _stand_ins(ctx, slots, prelude):
    """The prelude with a typed stand-in, not None, for a name a range loop saves before
    its first assignment (or the loop's index and target): `0.0`, `np.zeros(shape)` or
    `0` where stage 5 knows its shape. The entry iteration 0 saves is restored into a
    name nothing reads after the loop, so no value of it is ever used; its type is what
    a compiler that types names (numba) needs."""
    out = []
    for s in prelude:
        if not isinstance(s, gen.Reset):
            out.append(s)
            continue
        typed = {n: _stand_in(ctx, slots, n) for n in s.targets
                 if n not in slots.after_names | slots.positions}
        out += [gen.Bind(n, v) for n, v in typed.items() if v is not None]
        kept = [n for n, v in typed.items() if v is None]
        out += [gen.Reset(*kept)] if kept else []
    return out


def _stand_in(ctx, slots, name):
    if name in slots.counters:
        return const(0)
    if name not in slots.saved_in_loops or ctx.shapes.may_complex:
        return None
    shape = shape_of(ctx.shapes.cls.get(name))
    if shape == ():
        return const(0.0)
    if shape is None:
        return None
    zeros = gast.Attribute(value=ctx.names.ref("np"), attr="zeros", ctx=gast.Load())
    dims = gast.Tuple(elts=[const(n) for n in shape], ctx=gast.Load())
    return gast.Call(func=zeros, args=[dims], keywords=[])


def _seeded_args(ctx, seed):
    """The rule's parameters with the output's cotangent first."""
    args = _rrule_args(ctx)
    first = gast.Name(id=seed, ctx=gast.Param(), annotation=None, type_comment=None)
    (args.posonlyargs if args.posonlyargs else args.args).insert(0, first)
    return args


__all__ = ["plain_rule"]
