"""Calls of closure records and functools.partials in forward mode: the call of a plain
function they stand for, for call_jvp (transform/forward_api.py) and its reverse rule
(hvp, transform/forward_reverse.py).

A closure record (runtime/closures.py) `f = make_closure(T, (w,))` has the tangent of
its environment, `f_dot = (w_dot,)`; a partial `partial(g, a, k=b)` has
`(g's, (a's,), {"k": b's})` (make_partial's JVP). Generated code passes the called
value's own tangent under the key OWN:

    y, y_dot = call_jvp(f, {OWN: f_dot, 0: x_dot}, x)
        is   call_jvp(T, {'w': w_dot, 't': x_dot}, w, x)     (T compiled with its free
                                                              variables as leading
                                                              parameters)
    y, y_dot = call_jvp(p, {OWN: p_dot, 0: x_dot}, x)    (p = partial(g, a, k=b))
        is   call_jvp(g, {OWN: g's, 0: a's, 'k': b's, 1: x_dot}, a, x, b)

Every value the call reads is passed by position where the callee takes it so (a
default read from the closure, a partial's keyword), so that the reverse rule gives
it a cotangent; `regroup` turns the plain call's cotangents back into the value's own
(its environment's, or (func's, args', keywords')) and the caller's arguments'.
"""
import functools
import inspect
import types

from runtime.closures import Closure

from .errors import TransformError
from .forward.calls import OWN      # call_jvp's key for the called value's own tangent
from .forward.methods import user_method


class Plain:
    """A call of a plain function: fn(*args, **kwargs) with tangents by key, and
    regroup(own, tangent_cots, arg_cots, kw_cots) giving the original call's
    (own cotangent, tangent cotangents by its keys, positional cots, keyword cots)."""

    def __init__(self, fn, tangents, args, kwargs, regroup):
        self.fn, self.tangents, self.args, self.kwargs = fn, tangents, args, kwargs
        self.regroup = regroup


def is_value(fn):
    return isinstance(fn, (Closure, functools.partial))


def lowered(fn, tangents, args, kwargs):
    """The Plain call `fn(*args, **kwargs)` stands for (fn a closure record or a
    partial, nested any way, or a plain function)."""
    if isinstance(fn, Closure):
        return _closure(fn, tangents, args, kwargs)
    if not isinstance(fn, functools.partial):
        if tangents.get(OWN, 0) is None:        # a function's zero tangent (a list of
            tangents = {k: t for k, t in tangents.items() if k != OWN}   # functions')
        if OWN in tangents and inspect.ismethod(fn):     # `step = model.forward`
            method = user_method(fn.__self__, fn.__name__, len(args) + 1)
            if method is fn.__func__:
                return _called_object(fn.__self__, method, tangents, args, kwargs)
        method = user_method(fn, "__call__", len(args) + 1) if OWN in tangents else None
        if method is not None:                  # `layer(h)`, layer a user object
            return _called_object(fn, method, tangents, args, kwargs)
        if OWN in tangents:
            raise TransformError(f"forward mode (jvp, jacfwd): calling a "
                                 f"{type(fn).__name__} value that carries a derivative "
                                 "itself is not supported", hint="call a function defined "
                                 "with def, or use vjp/jacrev")
        return _positional(fn, tangents, args, kwargs)
    outer = _partial(fn, tangents, args, kwargs)
    inner = lowered(outer.fn, outer.tangents, outer.args, outer.kwargs)
    return Plain(inner.fn, inner.tangents, inner.args, inner.kwargs,
                 _composed(inner.regroup, outer.regroup))


def _called_object(obj, method, tangents, args, kwargs):
    """A user object with a Python `__call__`, carrying a tangent: its class's method
    with the object first (forward/methods.py), the object's tangent the receiver's."""
    shifted = {k + 1 if isinstance(k, int) else k: t for k, t in tangents.items()
               if k != OWN}
    inner = _positional(method, {0: tangents[OWN], **shifted}, (obj,) + tuple(args), kwargs)

    def regroup(own_cot, t_cots, a_cots, k_cots):
        _, t_cots, a_cots, k_cots = inner.regroup(own_cot, t_cots, a_cots, k_cots)
        given = {k: t_cots.get(k + 1 if isinstance(k, int) else k) for k in tangents
                 if k != OWN}
        given[OWN] = t_cots.get(0)
        return a_cots[0], given, a_cots[1:], k_cots
    return Plain(method, inner.tangents, inner.args, inner.kwargs, regroup)


def _composed(inner, outer):
    return lambda own, t_cots, a_cots, k_cots: outer(*inner(own, t_cots, a_cots, k_cots))


def _closure(closure, tangents, args, kwargs):
    """The template called with the record's variables first, then the arguments, then
    the parameters the call left to the record's defaults (by position)."""
    if closure.expired:
        raise TransformError(closure.stale_message(), hint="bind the value as a default "
                             "parameter (`lambda t, w=w: t * w`)")
    code, free, env = closure.template.__code__, closure.free_count, closure.env
    params = code.co_varnames[:code.co_argcount]
    first = code.co_argcount - (len(env) - free)       # the first parameter with a default
    kwargs, filled = dict(kwargs), []                  # filled: (position, default or None)
    for k in range(len(args), code.co_argcount):
        if params[k] in kwargs:
            filled.append((k, None, kwargs.pop(params[k])))
        elif k >= first:
            filled.append((k, k - first, env[free + k - first]))
        else:
            break
    own = tangents.get(OWN)
    named = {params[k] if isinstance(k, int) else k: t for k, t in tangents.items()
             if k != OWN}
    if own is not None:
        named.update({n: t for n, t in zip(code.co_freevars, own[:free]) if t is not None})
        named.update({params[k]: own[free + j] for k, j, _ in filled
                      if j is not None and own[free + j] is not None})
    call_args = tuple(env[:free]) + tuple(args) + tuple(v for _, _, v in filled)

    def regroup(_, t_cots, a_cots, k_cots):
        a_cots = list(a_cots) + [None] * (len(call_args) - len(a_cots))
        by_default = {j: free + k for k, j, _ in filled if j is not None}
        own_cot = tuple(a_cots[:free]) + tuple(
            a_cots[by_default[j]] if j in by_default else None for j in range(len(env) - free))
        own_t = tuple(t_cots.get(n) for n in code.co_freevars) + tuple(
            t_cots.get(params[first + j]) if j in by_default else None
            for j in range(len(env) - free))
        given = {k: t_cots.get(params[k] if isinstance(k, int) else k) for k in tangents
                 if k != OWN}
        if OWN in tangents:
            given[OWN] = own_t
        kws = {params[k]: a_cots[free + k] for k, j, _ in filled if j is None}
        return own_cot, given, a_cots[free:free + len(args)], {**k_cots, **kws}
    return Plain(closure.template, named, call_args, kwargs, regroup)


def _partial(partial, tangents, args, kwargs):
    """partial.func called with the bound arguments first, then the call's; the
    partial's keywords (the call's winning) after them."""
    bound, keywords = partial.args, {k: v for k, v in partial.keywords.items()
                                     if k not in kwargs}
    own = tangents.get(OWN)
    t_func, t_args, t_keywords = own if own is not None else (None, None, None)
    shifted = {len(bound) + k if isinstance(k, int) else k: t
               for k, t in tangents.items() if k != OWN}
    if t_func is not None:
        shifted[OWN] = t_func
    shifted.update({j: t for j, t in enumerate(t_args or ()) if t is not None})
    shifted.update({n: t for n, t in (t_keywords or {}).items()
                    if t is not None and n in keywords})

    def regroup(own_cot, t_cots, a_cots, k_cots):
        a_cots = list(a_cots) + [None] * (len(bound) + len(args) - len(a_cots))
        given = {k: t_cots.get(len(bound) + k if isinstance(k, int) else k)
                 for k in tangents if k != OWN}
        if OWN in tangents:         # (a keyword the call gives again: none of its own)
            given[OWN] = (t_cots.get(OWN), tuple(t_cots.get(j) for j in range(len(bound))),
                          {n: t_cots.get(n) if n in keywords else None
                           for n in partial.keywords})
        mine = (own_cot, tuple(a_cots[:len(bound)]),
                {n: k_cots.get(n) if n in keywords else None for n in partial.keywords})
        return mine, given, a_cots[len(bound):], {n: c for n, c in k_cots.items()
                                                   if n not in keywords}
    return Plain(partial.func, shifted, tuple(bound) + tuple(args), {**keywords, **kwargs},
                 regroup)


def _positional(fn, tangents, args, kwargs):
    """A plain function's call with the keywords that continue its positional
    parameters passed by position (the reverse rule gives cotangents by position)."""
    params = _positional_params(fn)
    kwargs, moved = dict(kwargs), []
    args = list(args)
    while len(args) < len(params) and params[len(args)] in kwargs:
        moved.append((len(args), params[len(args)]))
        args.append(kwargs.pop(params[len(args)]))

    def regroup(own_cot, t_cots, a_cots, k_cots):
        a_cots = list(a_cots) + [None] * (len(args) - len(a_cots))
        kws = {n: a_cots[k] for k, n in moved}
        return own_cot, t_cots, a_cots[:len(args) - len(moved)], {**k_cots, **kws}
    return Plain(fn, tangents, tuple(args), kwargs, regroup)


def _positional_params(fn):
    if not isinstance(fn, types.FunctionType):
        return []
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return [p.name for p in inspect.signature(fn).parameters.values() if p.kind in kinds]


def lifted_params(fn):
    """fn's parameters as its compiled rule takes them: a closure's template has its
    variables first (frontend/parse.py lift_free_variables)."""
    lifted = fn.__code__.co_freevars if getattr(fn, "thunkgrad_lifted", False) else ()
    return list(lifted) + list(inspect.signature(fn).parameters)
