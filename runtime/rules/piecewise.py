"""np.piecewise(x, condlist, funclist, *args, **kw), differentiated in x, in the extra
`args` passed to every piece, and in the constants of funclist.

NumPy starts from zeros_like(x) and, condition by condition, writes
y[cond_k] = f_k(x[cond_k], *args, **kw) (or the constant f_k); a later condition
overwrites an earlier one. So an element's cotangent belongs to the last condition
holding there (none: y is 0 there, no cotangent). Each callable piece is differentiated
by thunkgrad itself (runtime/callees.py): the forward sweep runs it through `vjp` on
the elements it is given, and its pullback receives g at the elements it still owns,
0 at those a later condition took. The conditions carry no cotangent. A piece that
is a closure record (a lambda reading the caller's locals, runtime/closures.py) hands
the cotangents of the values it read back as its entry of funclist's cotangent.
An integer x gives an integer result: no cotangent.
"""
import collections.abc

import numpy as np

from ..callees import function_jvp, value_vjp
from ..closures import Closure
from ..complex_safety import RuleRefused
from ..jvp import NoJvp
from ..helpers import unbroadcast
from ..registry import rrule
from ..thunks import Thunk, unthunk


class PieceRefused(NoJvp, RuleRefused):
    """A closure piece reading differentiated values under forward mode: a NoJvp for the
    rules that catch one (piecewise_second.py), a RuleRefused for the public API, which
    raises it again as a TransformError at the user's line (jvp raised it bare)."""


def piecewise_conditions(x, condlist, pieces):
    """condlist as np.piecewise reads it: one boolean row per piece (with the
    'otherwise' row when there is one piece more than conditions)."""
    if np.isscalar(condlist) or (not isinstance(condlist[0], (list, np.ndarray))
                                 and x.ndim != 0):
        condlist = [condlist]
    conds = np.asarray(condlist, dtype=bool)
    if len(conds) == pieces - 1:
        conds = np.concatenate([conds, ~np.any(conds, axis=0, keepdims=True)], axis=0)
    elif len(conds) != pieces:
        raise ValueError(f"with {len(conds)} condition(s), either {len(conds)} or "
                         f"{len(conds) + 1} functions are expected")
    return conds


def _float_positions(args):
    return tuple(k for k, a in enumerate(args)
                 if np.issubdtype(np.asarray(a).dtype, np.floating))


def _forward(x, conds, funclist, args, kw, wrt):
    """(y, {k: (out_k, pullback_k)}) with np.piecewise's semantics."""
    y, pieces = np.zeros_like(x), {}
    for k, (cond, func) in enumerate(zip(conds, funclist)):
        if not isinstance(func, collections.abc.Callable):
            y[cond] = func
            continue
        vals = x[cond]
        if vals.size > 0:
            out, pullback = value_vjp(func, wrt, vals, *args, **kw)
            y[cond] = out
            pieces[k] = (out, pullback)
    return y, pieces


def _owners(x, conds):
    """The index of the last condition holding at each element (-1: none)."""
    owner = np.full(np.shape(x), -1)
    for k, cond in enumerate(conds):
        owner[cond] = k
    return owner


def piecewise_jvp(tangents, x, condlist, funclist, *args, **kw):
    """np.piecewise's tangent, with its semantics: condition by condition, the elements
    a piece owns get its tangent (a callable's by forward mode, along x's and the float
    args' tangents; a constant's, funclist's entry), a later condition overwriting."""
    tangents = list(tangents) + [None] * (3 + len(args) - len(tangents))
    t_x, t_funcs, t_args = tangents[0], tangents[2], tangents[3:]
    x = np.asanyarray(x)
    if not np.issubdtype(x.dtype, np.floating):
        return None
    conds = piecewise_conditions(x, condlist, len(funclist))
    t_x = np.zeros(x.shape) if t_x is None else np.broadcast_to(t_x, x.shape)
    given = {1 + p: t_args[p] for p in _float_positions(args) if t_args[p] is not None}
    out = np.zeros(x.shape, dtype=x.dtype)
    for k, (cond, func) in enumerate(zip(conds, funclist)):
        own = None if t_funcs is None else t_funcs[k]
        if not isinstance(func, collections.abc.Callable):
            out[cond] = 0 if own is None else own
        elif np.any(cond):
            out[cond] = value_jvp(func, own, {0: t_x[cond], **given}, x[cond], *args, **kw)
    return out if x.ndim else out[()]


@rrule(np.piecewise, jvp=piecewise_jvp)
def _piecewise_rule(x, condlist, funclist, *args, **kw):
    x = np.asanyarray(x)
    if not np.issubdtype(x.dtype, np.floating):
        ans = np.piecewise(x, condlist, funclist, *args, **kw)
        return ans, lambda g: (None,) * (3 + len(args))
    conds = piecewise_conditions(x, condlist, len(funclist))
    positions = _float_positions(args)
    ans, pieces = _forward(x, conds, funclist, args, kw, (0,) + tuple(1 + p for p in positions))

    def pullback(g):
        parts = Thunk(lambda: _cotangents(unthunk(g), x, conds, funclist, args, pieces,
                                          positions))
        return (Thunk(lambda: parts.force()[0]), None, Thunk(lambda: parts.force()[1]),
                *(Thunk(lambda k=k: parts.force()[2][k]) for k in range(len(args))))
    return ans, pullback


def _cotangents(g, x, conds, funclist, args, pieces, positions):
    """(cotangent of x, list for funclist's constants, list for args)."""
    g = np.broadcast_to(np.asarray(g, dtype=x.dtype), x.shape)
    owner = _owners(x, conds)
    gx = np.zeros(x.shape, dtype=x.dtype)
    gfuncs = [None] * len(funclist)
    gargs = [None] * len(args)
    for k, (cond, func) in enumerate(zip(conds, funclist)):
        owned = np.where(owner == k, g, 0)[cond]
        if k in pieces:
            out, pullback = pieces[k]
            own, *cots = pullback(unbroadcast(owned, out))
            if cots[0] is not None:
                gx[cond] += np.asarray(cots[0], dtype=x.dtype).reshape(-1)
            for p, c in zip(positions, cots[1:]):
                gargs[p] = _add(gargs[p], c)
            gfuncs[k] = own
        elif not isinstance(func, collections.abc.Callable):
            gfuncs[k] = unbroadcast(owned, func)
    gfuncs = None if all(c is None for c in gfuncs) else type(funclist)(gfuncs)
    return gx if x.ndim else gx[()], gfuncs, gargs


def _add(total, c):
    if c is None:
        return total
    return c if total is None else total + c


def value_jvp(func, own, tangents, /, *args, **kw):
    """The tangent of a piece's output by forward mode; a closure record runs as the
    function it stands for, refused when the values it read carry a tangent."""
    if isinstance(func, Closure):
        if own is not None and any(np.any(np.asarray(t) != 0) for t in _leaves(own)):
            raise PieceRefused("np.piecewise: forward mode through a piece reading differentiated "
                        "values (a closure) is not supported: pass them in `args`")
        func = func.function()
    return function_jvp(func, tangents, *args, **kw)[1]


def _leaves(tree):
    if isinstance(tree, (list, tuple)):
        return [leaf for t in tree for leaf in _leaves(t)]
    return [] if tree is None else [tree]
