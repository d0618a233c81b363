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
import inspect

from runtime import registry
from runtime.spread import entries_cotangent

from .errors import TransformError
from .forward.calls import provide_spread
from .forward_api import call_jvp
from .forward_nested import call_jvp_tangent
from .forward_reverse import _differentiable, call_jvp_rule, keyword_rule
from .frontend.varargs import named_callee


def _given(args, args_dot):
    """{position: tangent} for the entries carrying a derivative."""
    if args_dot is None:
        return {}
    return {k: args_dot[k] for k, a in enumerate(args)
            if _differentiable(a) and args_dot[k] is not None}


def spread_jvp(fn, args, args_dot, /, **kwargs):
    """(fn(*args, **kwargs), its tangent along the entries' tangents args_dot)."""
    args = list(args)
    return call_jvp(named_callee(fn, len(args)), _given(args, args_dot), *args, **kwargs)


def spread_jvp_tangent(tangents, fn, args, args_dot, /, **kwargs):
    """The tangent of spread_jvp(fn, args, args_dot) along (fn's, args', args_dot's)."""
    t_fn, t_args, t_args_dot = (list(tangents) + [None] * 3)[:3]
    entries = list(args)
    fn = named_callee(fn, len(entries))
    given = _given(entries, args_dot)
    t_given = None if t_args_dot is None else {k: t_args_dot[k] for k in given}
    t_entries = [None] * len(entries) if t_args is None else list(t_args)
    return call_jvp_tangent((t_fn, t_given, *t_entries), fn, given, *entries, **kwargs)


@registry.rrule(spread_jvp, jvp=spread_jvp_tangent)
def spread_jvp_rule(fn, args, args_dot, /, **kwargs):
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



# ---- f(*args, **params), params's keys known when the code runs (spread_keywords) ----

def _by_position(fn, args, keywords, args_dot, keywords_dot):
    """The keywords that continue fn's positional parameters moved into args (call_jvp's
    reverse rule answers by position): (args, keywords, args_dot, keywords_dot, moved)."""
    args, args_dot = list(args), _entries(args_dot, len(args))
    keywords, keywords_dot = dict(keywords), dict(keywords_dot or {})
    positional = [p.name for p in inspect.signature(fn).parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    moved = []
    while len(args) < len(positional) and positional[len(args)] in keywords:
        name = positional[len(args)]
        moved.append(name)
        args.append(keywords.pop(name))
        args_dot.append(keywords_dot.pop(name, None))
    return args, keywords, args_dot, keywords_dot, moved


def _entries(values, n):
    return [None] * n if values is None else list(values)


def _keyword_tangents(fn, keywords, keywords_dot):
    """{name: tangent} for the keywords left that carry a derivative; one landing in
    fn's `**kwargs` is refused (its compiled code does not differentiate it)."""
    named = inspect.signature(fn).parameters
    out = {k: keywords_dot.get(k) for k, v in keywords.items()
           if _differentiable(v) and keywords_dot.get(k) is not None}
    for k in out:
        if k not in named or named[k].kind is named[k].VAR_KEYWORD:
            raise TransformError(
                f"forward mode (jvp, jacfwd): a differentiated value spread into "
                f"{fn.__name__}'s **kwargs as {k!r}: its compiled code does not "
                "differentiate what **kwargs holds", hint="name the parameter")
    return out


def spread_keywords_jvp(fn, args, keywords, args_dot, keywords_dot):
    """(fn(*args, **keywords), its tangent along the entries' and the keywords'
    tangents)."""
    args, keywords, args_dot, keywords_dot, _ = _by_position(fn, args, keywords, args_dot,
                                                            keywords_dot)
    fn = named_callee(fn, len(args))
    given = {**_given(args, args_dot), **_keyword_tangents(fn, keywords, keywords_dot)}
    return call_jvp(fn, given, *args, **keywords)


def _spread_keywords_rule(fn, args, keywords, args_dot, keywords_dot):
    """spread_keywords_jvp's value and pullback: call_jvp's reverse rule, the keywords
    continuing fn's positional parameters passed by position, the others by name
    (keyword_rule gives their cotangents)."""
    n = len(args)
    entries, rest, tangents, rest_dot, moved = _by_position(fn, args, keywords, args_dot,
                                                            keywords_dot)
    fn = named_callee(fn, len(entries))
    named = _keyword_tangents(fn, rest, rest_dot)
    out, pullback = keyword_rule(fn, {**_given(entries, tangents), **named}, entries, rest)

    def spread_keywords_pullback(g):
        _, tangent_cots, cots, k_cots = pullback(g)
        of_tangents = [tangent_cots.get(k) for k in range(len(entries))]
        of_named = {k: tangent_cots.get(k) for k in named}
        return (None, entries_cotangent(cots[:n], args),
                _by_name(moved, cots[n:], k_cots),
                None if args_dot is None else entries_cotangent(of_tangents[:n], args_dot),
                None if keywords_dot is None else _by_name(moved, of_tangents[n:], of_named))
    return out, spread_keywords_pullback


def _positional_only(fn, rest, rest_dot, entry):
    """fn, when no value left to a keyword carries a derivative (call_jvp's rules answer
    by position)."""
    if _keyword_tangents(fn, rest, rest_dot) or \
            any(_differentiable(v) for v in rest.values()):
        raise TransformError(
            f"{entry}: a differentiated value passed to {fn.__name__}'s keyword-only "
            "parameter from a dict spread with `**`", hint="pass it by position, or "
            "compute H v by finite differences of grad")
    return fn


def _by_name(names, cots, by_name=None):
    out = {k: c for k, c in zip(names, cots) if c is not None}
    out.update({k: c for k, c in (by_name or {}).items() if c is not None})
    return out or None


def _spread_keywords_tangent(tangents, fn, args, keywords, args_dot, keywords_dot):
    """The tangent of spread_keywords_jvp along (fn's, args', keywords', args_dot's,
    keywords_dot's): call_jvp's, every differentiated value passed by position."""
    t_fn, t_args, t_keywords, t_args_dot, t_keywords_dot = (list(tangents) + [None] * 5)[:5]
    entries, rest, tangents_, rest_dot, moved = _by_position(fn, args, keywords, args_dot,
                                                             keywords_dot)
    fn = _positional_only(named_callee(fn, len(entries)), rest, rest_dot, "jvp of hvp")
    t_entries = _entries(t_args, len(args)) + [(t_keywords or {}).get(k) for k in moved]
    t_dots = _entries(t_args_dot, len(args)) + [(t_keywords_dot or {}).get(k) for k in moved]
    given = _given(entries, tangents_)
    t_given = {k: t_dots[k] for k in given}
    return call_jvp_tangent((t_fn, t_given, *t_entries), fn, given, *entries, **rest)


registry.rrule(spread_keywords_jvp, jvp=_spread_keywords_tangent)(_spread_keywords_rule)
provide_spread(spread_jvp, spread_keywords_jvp)
