"""A call of a function with a custom rule (`rrule(f, jvp=...)`) in reverse mode's flat
gradient (hvp forward over reverse, transform/flat_dispatch.py): the rule's own value
and pullback, and their tangents from the JVP the rule declares.

The cotangents c(x, g) = J(x)^T g have the tangent J^T g_dot + d/dx <g, J(x) t> along
(t, g_dot) (second derivatives are symmetric): the rule's pullback at g_dot, and the
gradient over the arguments of <g, the declared tangent J(x) t>:

    a JVP function `jvp(tangents, *args)`   reverse mode over its source (as hvp's
                                            route reverse_over_forward does it)
    LINEAR                                  for each argument i with a tangent, J t is
                                            f with t_i in i's place: the rule's pullback
                                            there, at g, for the other arguments

JOINT, and a tangent passed by keyword, are refused; keywords without one are passed on
as constants.
"""
from runtime import registry
from runtime.accumulate import accum_eager
from runtime.complex_safety import RuleRefused
from runtime.forward import zero_tangent
from runtime.jvp import LINEAR, NoJvp
from runtime.thunks import unthunk

_INSTEAD = " Instead: use hvp's route=\"reverse_over_forward\""


def custom_rule(fn):
    """The Rule a flat gradient's `f_rrule` cell calls through, or None."""
    return getattr(fn, "thunkgrad_custom_rule", None)


def custom_value_tangent(rule, args, kwargs, t_args):
    """The tangent of the custom rule's output along t_args (by position)."""
    try:
        out, tangent = rule.frule(list(t_args), *args, **kwargs)
    except NoJvp as exc:
        raise RuleRefused(f"hvp (forward over reverse): {exc}" + _INSTEAD) from None
    return zero_tangent(out) if tangent is None else tangent


def custom_cotangent_tangents(rule, args, kwargs, g, t_g, t_args, layout):
    """The tangent of the rule's cotangents `layout` (its pullback at g)."""
    total = [None] * len(layout)
    if t_g is not None:
        _add(total, rule.rrule(*args, **kwargs)[1](t_g))
    if any(t is not None for t in t_args):
        _add(total, _second(rule, args, kwargs, g, t_args, layout))
    return tuple(None if c is None else zero_tangent(c) if t is None else t
                 for c, t in zip(layout, total))


def _second(rule, args, kwargs, g, t_args, layout):
    """d/dx <g, J(x) t>, one entry per argument (None where the layout has none)."""
    term = rule.custom_jvp
    wanted = tuple(k for k, c in enumerate(layout) if c is not None and k < len(args))
    if term == LINEAR:
        total = [None] * len(args)
        for i, t in enumerate(t_args):
            if t is not None:
                swapped = args[:i] + (t,) + args[i + 1:]
                cots = rule.rrule(*swapped, **kwargs)[1](g)
                _add(total, [None if k == i else c for k, c in enumerate(cots)])
        return total
    if callable(term):
        return _through_jvp_function(term, args, kwargs, g, t_args, wanted)
    why = "which declares no JVP" if term is None else "a custom rule whose JVP is JOINT"
    raise RuleRefused(f"hvp (forward over reverse): a call of {rule.name}, {why}" + _INSTEAD)


def _through_jvp_function(term, args, kwargs, g, t_args, wanted):
    """Reverse mode over the JVP function: its registered rule's pullback when it has
    one (np.piecewise's, runtime/rules/piecewise_second.py: its cotangents as rules
    give them, a closure record's own among them; the keywords, carrying no tangent,
    passed on), else vjp of its source, the keywords passed on as constants (a keyword
    carrying a tangent is refused before: flat_dispatch.py's _custom_parts)."""
    from .api import _function_vjp  # (api imports the compiler, which reaches this module)
    if not wanted:
        return ()
    rule = registry.lookup(term)
    if rule is not None:
        cots = rule.rrule(tuple(t_args), *args, **kwargs)[1](g)
        found = {k: unthunk(cots[k + 1]) for k in wanted}
    else:
        _, pullback = _function_vjp(term, tuple(k + 1 for k in wanted), tuple(t_args),
                                    *args, **kwargs)
        found = dict(zip(wanted, pullback(g)))
    return [found.get(k) for k in range(len(args))]


def _add(total, cots):
    for k, c in enumerate(cots):
        c = unthunk(c)
        if c is not None and k < len(total):
            total[k] = accum_eager(total[k], c)     # an object's: a dict of fields
