"""`f(*xs)` where the length of xs is known only when the code runs.

The compiler writes the call as `spread_call(f, xs)`: a call of a value, dispatched at
run time (transform/public/run_time_rules.py MethodRule) to f's compiled rule with xs
spread into its arguments; the cotangents of those arguments come back as xs's
cotangent, the way `list(xs)`'s rule gives them (sequence_vjp).

    y = f(a, *xs)      ->    t1 = [a, *xs]
                             y = spread_call(f, t1)

`f(a, **params)` with params's keys known only at run time is written
`spread_keywords(f, [a], params)`: the cotangents of the parameters params fills come
back as a dict with params's keys.
"""
import numpy as np

from .registry import template_helper
from .thunks import unthunk


@template_helper
def spread_call(fn, args, /, **kwargs):
    """fn(*args, **kwargs): what the forward sweep computes (the rule is elsewhere)."""
    return fn(*args, **kwargs)


@template_helper
def spread_keywords(fn, args, keywords):
    """fn(*args, **keywords): what the forward sweep computes (the rule is elsewhere)."""
    return fn(*args, **keywords)


def keywords_pullback(pullback, names, args, keywords):
    """The pullback of `spread_keywords(fn, args, keywords)` from that of
    `fn(*args, **keywords)`, whose cotangents come one per parameter of fn (`names`, in
    order): cotangents for (spread_keywords, fn, args, keywords)."""
    def spread(g):
        cotangents = tuple(pullback(g))
        fn_cot, params = cotangents[0], cotangents[1:]
        if len(params) != len(names):
            raise TypeError(f"spread_keywords: {len(params)} cotangents for "
                            f"{len(names)} parameters")
        by_name = {k: unthunk(params[names.index(k)]) for k in keywords}
        by_name = {k: v for k, v in by_name.items() if v is not None}
        return (None, fn_cot, entries_cotangent(params[:len(args)], args), by_name or None)
    return spread


def spread_pullback(pullback, args):
    """The pullback of `spread_call(fn, args)` from that of `fn(*args)`: cotangents for
    (spread_call, fn, args)."""
    def spread(g):
        # fn's cotangent, then one per parameter: the spread entries fill the first ones,
        # defaults and keywords (never differentiated next to a star) the rest
        cotangents = tuple(pullback(g))
        if len(cotangents) < len(args) + 1:
            raise TypeError(f"spread_call: {len(cotangents) - 1} cotangents for "
                            f"{len(args)} spread arguments")
        return (None, cotangents[0], entries_cotangent(cotangents[1:len(args) + 1], args))
    return spread


def entries_array(like, parts):
    """The cotangent of an array read entry by entry (rows of `like`): the entries'
    cotangents stacked in `like`'s shape, zeros where an entry has None."""
    out = np.zeros(like.shape, dtype=np.result_type(like, 0.0))
    for k, part in enumerate(parts):
        if part is not None:
            out[k] = part
    return out


def entries_cotangent(parts, args):
    """The cotangent of the spread sequence: a list or tuple like it (an array for an
    array, None for a range or where no entry has one)."""
    parts = [unthunk(part) for part in parts]
    if isinstance(args, range) or all(part is None for part in parts):
        return None
    if isinstance(args, np.ndarray):
        return entries_array(args, parts)
    return tuple(parts) if isinstance(args, tuple) else parts
