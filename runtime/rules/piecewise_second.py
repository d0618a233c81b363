"""np.piecewise's second derivatives: reverse mode over its tangent `piecewise_jvp`
(runtime/rules/piecewise.py), so hvp and hessian take np.piecewise by both routes.

The tangent is linear in the pieces' tangents, each piece's written where it owns the
element (the last condition holding; the conditions carry no derivative), so its
cotangent g splits as the value's does: piece k gets g where it owns the element, and
reverse mode over forward mode's call of the piece (runtime/callees.py tangent_vjp)
gives the cotangents of x's and the args' values (second order) and of their tangents
(first order); a constant piece's tangent gets the sum of what it owns. The pieces are
user functions compiled by thunkgrad; a closure record's own cotangent is funclist's."""
import collections.abc

import numpy as np

from ..callees import tangent_vjp
from ..complex_safety import RuleRefused
from ..helpers import unbroadcast
from ..jvp import NoJvp
from ..registry import rrule
from ..thunks import unthunk
from .piecewise import _add, _float_positions, _owners, piecewise_conditions, piecewise_jvp


def piecewise_jvp_tangent(tangents, t, x, condlist, funclist, *args, **kw):
    """piecewise_jvp's own tangent along its tangents' alone (it is linear in them);
    along x's, funclist's or the args' a third derivative, refused."""
    full = list(tangents) + [None] * (4 + len(args) - len(tangents))
    if any(_carries(d) for d in full[1:]):
        raise NoJvp("np.piecewise: a third derivative (the tangent of hvp's tangent "
                    "along the pieces' arguments) is not supported")
    if full[0] is None:
        return np.zeros(np.shape(x))
    return piecewise_jvp(full[0], x, condlist, funclist, *args, **kw)


def _carries(tangent):
    if isinstance(tangent, (list, tuple)):
        return any(_carries(t) for t in tangent)
    return tangent is not None and not (isinstance(tangent, (float, np.ndarray)) and
                                        not np.any(tangent))


@rrule(piecewise_jvp, jvp=piecewise_jvp_tangent)
def _piecewise_jvp_rule(tangents, x, condlist, funclist, *args, **kw):
    try:
        out = piecewise_jvp(tangents, x, condlist, funclist, *args, **kw)
    except NoJvp as exc:            # a closure piece reading differentiated values
        raise RuleRefused(f"hvp/hessian: {str(exc).split(': pass')[0]} Instead: pass "
                          "the values the piece reads in np.piecewise's `args`") from None
    return out, lambda g: _cotangents(unthunk(g), tuple(tangents), x, condlist, funclist,
                                      args, kw)


def _cotangents(g, tangents, x, condlist, funclist, args, kw):
    """(the tangents' cotangents, x's, None for condlist, funclist's, the args')."""
    n, x = len(args), np.asanyarray(x)
    if not np.issubdtype(x.dtype, np.floating):
        return (None,) * (4 + n)
    full = list(tangents) + [None] * (3 + n - len(tangents))
    t_x, t_funcs, t_args = full[0], full[2], full[3:]
    conds = piecewise_conditions(x, condlist, len(funclist))
    g = np.broadcast_to(np.asarray(g, dtype=x.dtype), x.shape)
    owner, floats = _owners(x, conds), _float_positions(args)
    t_x_full = np.zeros(x.shape) if t_x is None else np.broadcast_to(t_x, x.shape)
    gx, gtx = np.zeros(x.shape, dtype=x.dtype), np.zeros(x.shape, dtype=x.dtype)
    gargs, gtargs = [None] * n, [None] * n
    gfuncs, gtfuncs = [None] * len(funclist), [None] * len(funclist)
    for k, (cond, func) in enumerate(zip(conds, funclist)):
        owned = np.where(owner == k, g, 0)[cond]
        if not isinstance(func, collections.abc.Callable):
            if t_funcs is not None and t_funcs[k] is not None:
                gtfuncs[k] = unbroadcast(owned, func)
            continue
        if not np.any(cond):
            continue
        given = {0: t_x_full[cond], **{1 + p: t_args[p] for p in floats
                                      if t_args[p] is not None}}
        gfuncs[k], t_cots, cots = tangent_vjp(func, given, owned, x[cond], *args, **kw)
        _into(gx, cond, cots[0])
        _into(gtx, cond, t_cots.get(0))
        for p in floats:
            gargs[p] = _add(gargs[p], cots[1 + p])
            gtargs[p] = _add(gtargs[p], t_cots.get(1 + p))
    shown = (lambda a: a) if x.ndim else (lambda a: a[()])
    t_cot = (None if t_x is None else unbroadcast(shown(gtx), t_x), None,
             _listed(gtfuncs, funclist), *gtargs)[:len(tangents)]
    return (t_cot, shown(gx), None, _listed(gfuncs, funclist), *gargs)


def _into(total, cond, c):
    if c is not None:
        total[cond] += np.asarray(c, dtype=total.dtype).reshape(-1)


def _listed(cots, funclist):
    return None if all(c is None for c in cots) else type(funclist)(cots)
