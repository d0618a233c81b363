"""A compiled callee's plain function cut in two (docs/ir.md, "Second lowering", "Calls"):

    def g_plain(dy, a, b):            def g_forward(a, b):
        <forward sweep>                   <forward sweep>
        value = y               ->        return (y, (a, h, tape_h, ...))
        <backward sweep>
        return (value, cots)          def g_backward(dy, g_saved):
                                          a, h, tape_h, ... = g_saved
                                          <backward sweep>
                                          return cots

The plain function is one straight scope, so the cut is exact: `saved` is every name the
backward sweep reads that the forward sweep or the parameters bound, passed with the
value it had at the cut. Both halves come from one compilation of the callee
(`lowering="plain/split"`; stage 8 emits each half's `def` as its own rule). A name the backward sweep reads that the forward sweep binds only in
a loop or a branch is bound to None first in the forward half, as the plain function's
prelude binds the names its backward sweep restores: the backward sweep reads it only
under the mirrored loop or branch, where the forward sweep bound it (the one function
reads it there too; anywhere else it would have raised NameError, not run).

A caller specialised to its arguments' shapes compiles the halves of a call for the
shapes its stage 5 knows there (Compilation.split_call), as the callee's rule is
specialised at run time. The forward half of a callee with no complex value of its own
starts with `refuse_complex('g', a, b)`, the check of real arguments the rule path makes
at each call.
"""
import gast

from ..ir.nodes import const, load, store
from .assemble import _rrule_args


def split_halves(ctx, seed, forward, returned, backward, params):
    """[("forward", name, gast def), ("backward", name, gast def)]: both halves from
    this one compilation (`ctx.part` "split"), so `saved` is computed once and the
    callee is compiled once, not once per half."""
    saved, unsure = saved_names(forward, backward, params)
    if unsure:                              # bound in a loop or a branch only: None first
        forward = [gast.Assign(targets=[store(n) for n in unsure], value=const(None),
                               type_comment=None)] + forward
    names = [ctx.names.reserve(f"{ctx.src.name}_{part}") for part in ("forward", "backward")]
    ctx.checks_real = not ctx.shapes.may_complex
    if ctx.checks_real:
        forward = [_real_only(ctx, params)] + forward
    kept = gast.Tuple(elts=[load(n) for n in saved], ctx=gast.Load())
    out = gast.Tuple(elts=[returned, kept], ctx=gast.Load())
    halves = [("forward", names[0], _def(names[0], _rrule_args(ctx),
                                         forward + [gast.Return(value=out)]))]
    return halves + [("backward", names[1], _backward_half(ctx, names[1], seed, backward,
                                                           saved))]


def _backward_half(ctx, name, seed, backward, saved):
    given = ctx.names.reserve(f"{ctx.src.name}_saved")
    unpack = [gast.Assign(targets=[gast.Tuple(elts=[store(n) for n in saved],
                                              ctx=gast.Store())],
                          value=load(given), type_comment=None)] if saved else []
    args = gast.arguments(args=[_param(seed), _param(given)], posonlyargs=[], vararg=None,
                          kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[])
    return _def(name, args, unpack + backward[:-1] + [gast.Return(value=backward[-1].value)])


def _real_only(ctx, params):
    """`refuse_complex('g', a, b)`: halves of a callee with no complex value of its own
    may assume real arguments (a 0.0 stand-in, a rule left unguarded: `real_arguments`),
    which the rule path checks at each call; the forward half checks them itself (and
    the backward half's come from it), so neither is `real_arguments`
    (`Compilation.checks_real`)."""
    args = [const(ctx.src.name)] + [load(p) for p in params]
    return gast.Expr(value=ctx.names.call("refuse_complex", *args))


def saved_names(forward, backward, params):
    """(the names the backward sweep reads that the forward sweep or `params` bound,
    sorted; those of them the forward sweep binds only in a loop or a branch)."""
    stored = {n.id for s in forward for n in gast.walk(s)
              if isinstance(n, gast.Name) and isinstance(n.ctx, gast.Store)}
    certain = set(params) | {n.id for s in forward if isinstance(s, (gast.Assign,
                                                                     gast.AugAssign))
                             for t in _targets(s) for n in gast.walk(t)
                             if isinstance(n, gast.Name)}
    read = {n.id for s in backward for n in gast.walk(s)
            if isinstance(n, gast.Name) and isinstance(n.ctx, gast.Load)}
    saved = sorted(read & (stored | set(params)))
    return saved, [n for n in saved if n not in certain]


def _targets(s):
    return s.targets if isinstance(s, gast.Assign) else [s.target]


def _param(name):
    return gast.Name(id=name, ctx=gast.Param(), annotation=None, type_comment=None)


def _def(name, args, body):
    return gast.FunctionDef(name=name, args=args, body=body, decorator_list=[],
                            returns=None, type_comment=None, type_params=[])
