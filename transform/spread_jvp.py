"""Forward mode's `f(*xs)` where the length of xs is known only when the code runs
(reverse mode's `spread_call`, runtime/spread.py), and calls of a helper taking `*args`.

    y = f(a, *xs)     ->   t1 = [a, *xs]
                           t1_dot = [a_dot, *xs_dot]
                           y, y_dot = spread_jvp(f, t1, t1_dot)

`spread_jvp` is `call_jvp(f, {k: t1_dot[k]}, *t1)` (forward_api.call_jvp), the entries
that carry a derivative given their tangents by position; a helper taking `*args` is
compiled for the number of values it gets, as reverse mode compiles it
(frontend/varargs.py `named_callee`, which call_jvp applies). Its reverse rule (hvp: reverse over
generated forward code) is call_jvp's (forward_reverse.call_jvp_rule), the entries'
cotangents regrouped as the sequences they came in; its tangent (forward over forward)
is call_jvp's (forward_nested.call_jvp_tangent), regrouped the same way.
"""
from runtime import registry
from runtime.spread import entries_cotangent

from .forward.calls import provide_spread
from .forward_api import call_jvp
from .forward_nested import call_jvp_tangent
from .forward_reverse import _differentiable, call_jvp_rule
from .frontend.varargs import named_callee


def _given(args, args_dot):
    """{position: tangent} for the entries carrying a derivative."""
    if args_dot is None:
        return {}
    return {k: args_dot[k] for k, a in enumerate(args)
            if _differentiable(a) and args_dot[k] is not None}


def spread_jvp(fn, args, args_dot, **kwargs):
    """(fn(*args, **kwargs), its tangent along the entries' tangents args_dot)."""
    args = list(args)
    return call_jvp(named_callee(fn, len(args)), _given(args, args_dot), *args, **kwargs)


def spread_jvp_tangent(tangents, fn, args, args_dot, **kwargs):
    """The tangent of spread_jvp(fn, args, args_dot) along (fn's, args', args_dot's)."""
    t_fn, t_args, t_args_dot = (list(tangents) + [None] * 3)[:3]
    entries = list(args)
    fn = named_callee(fn, len(entries))
    given = _given(entries, args_dot)
    t_given = None if t_args_dot is None else {k: t_args_dot[k] for k in given}
    t_entries = [None] * len(entries) if t_args is None else list(t_args)
    return call_jvp_tangent((t_fn, t_given, *t_entries), fn, given, *entries, **kwargs)


@registry.rrule(spread_jvp, jvp=spread_jvp_tangent)
def spread_jvp_rule(fn, args, args_dot, **kwargs):
    """spread_jvp's value and the pullback of its (output, output tangent) pair:
    (None, args' cotangent, args_dot's), each like the sequence it came in."""
    entries = list(args)
    given = _given(entries, args_dot)
    out, pullback = call_jvp_rule(named_callee(fn, len(entries)), given, *entries, **kwargs)

    def spread_jvp_pullback(g):
        _, tangent_cots, *cots = pullback(g)
        of_tangents = [tangent_cots.get(k) for k in range(len(entries))]
        return (None, entries_cotangent(cots, args),
                None if args_dot is None else entries_cotangent(of_tangents, args_dot))
    return out, spread_jvp_pullback


provide_spread(spread_jvp)
