"""A call dispatched when it runs, in reverse mode's flat gradient (hvp forward over
reverse, transform/flat_gradient.py): a user function called with keywords, a method
of a user object, a closure, a partial or a bound method called as a value, a callable
object (reverse mode's CalleeRule and MethodRule). The flat gradient keeps the rule
object and the call's values, and asks for the value and the cotangents apart:

    t1, t1_pullback = affine_rrule(x, a=a)        t1 = rule_call(affine_rrule, ('a',), x, a)
    t1_cots1 = t1_pullback(g)               ->    t1_cots1 = rule_cotangents(affine_rrule,
                                                                ('a',), g, x, a)

Both run the rule itself (reverse mode's own value and cotangents, by the callee's
parameters as the flat gradient reads them). Their tangents are forward mode's call of
the same callee (`call_jvp`, which resolves methods, closures, partials and callable
objects as forward mode does) and, for the cotangents J^T g, the tangent
J^T g_dot + H_g x_dot: the pullback of the callee's pair code (value, tangent) along
the cotangent (g_dot, g), which transform/forward_reverse.py's rule of call_jvp gives
(reverse mode over the callee's forward code). A plain callee with array arguments
goes through transform/flat_calls.py's callee_vjp instead: forward over its own flat
gradient.
"""
import contextlib
import inspect

import numpy as np

from runtime import registry
from runtime.closures import Closure
from runtime.forward import zero_tangent
from runtime.complex_safety import RuleRefused
from runtime.spread import entries_cotangent, spread_call, spread_keywords
from runtime.thunks import unthunk

from .flat_custom import custom_cotangent_tangents, custom_rule, custom_value_tangent
from .forward.calls import OWN, container_method
from .forward_api import call_jvp
from .forward_reverse import keyword_rule
from .public.run_time_rules import CalleeRule, MethodRule, function_rule

_INSTEAD = " Instead: use hvp's route=\"reverse_over_forward\""


def rule_call(site):
    """The value of the rule's call: `rule(*args, **dict(zip(keywords, ...)))[0]` for
    site = (rule, keywords, values), the keywords' values last in `values`."""
    rule, keywords, values = site
    args, kwargs = _split(keywords, values)
    return rule(*args, **kwargs)[0]


# its value may be anything the callee returns, a user object too: `d.shape` of it is
# the object's attribute, not an array's (transform/lowering/receiver_kinds.py)
rule_call.thunkgrad_any_value = True


def rule_call_jvp(tangents, site):
    rule, keywords, values = site
    if custom_rule(rule) is not None:
        args, kwargs, t_args = _custom_parts(site, tangents[0])
        return custom_value_tangent(custom_rule(rule), args, kwargs, t_args)
    call = _ForwardCall(rule, keywords, values, _entries(tangents[0], values))
    return call_jvp(call.fn, call.tangents, *call.args, **call.kwargs)[1]


def rule_cotangents(g, site):
    """The rule's pullback at g: cotangents by the callee's parameters (a method's
    receiver, or the called value's own, first)."""
    rule, keywords, values = site
    args, kwargs = _split(keywords, values)
    with _called_again(values):
        _, pullback = rule(*args, **kwargs)
    return tuple(unthunk(c) for c in pullback(g))


def rule_cotangents_jvp(tangents, g, site):
    """The tangent of rule_cotangents along the values' tangents and g's."""
    rule, keywords, values = site
    layout = rule_cotangents(g, site)
    if custom_rule(rule) is not None:
        args, kwargs, t_args = _custom_parts(site, tangents[1])
        return custom_cotangent_tangents(custom_rule(rule), args, kwargs, g, tangents[0],
                                         t_args, layout)
    call = _ForwardCall(rule, keywords, values, _entries(tangents[1], values))
    t_g = tangents[0]
    with _called_again(values):
        _, pullback = keyword_rule(call.fn, call.tangents, call.args, call.kwargs)
    own, _, cots, by_name = pullback((t_g, g))
    found = call.regroup(own, call.by_parameter(cots, by_name))
    return tuple(None if value is None else zero_tangent(value)
                 if k >= len(found) or found[k] is None else found[k]
                 for k, value in enumerate(layout))


@contextlib.contextmanager
def _called_again(values):
    """The closures among `values` taken as live while the call is made again: a
    closure passed to a call expires once the call is over (a variable it reads may be
    bound again, runtime/closures.py), but it holds the values it read then, by value,
    so calling it again for the cotangents is the call the user's code made."""
    expired = [v for v in values if isinstance(v, Closure) and v.expired]
    for closure in expired:
        closure.expired = False
    try:
        yield
    finally:
        for closure in expired:
            closure.expired = True


class FunctionAsRule:
    """A plain function called like a CalleeRule (flat_calls.callee_vjp's arguments
    that are no arrays: a closure, an object)."""

    def __init__(self, fn):
        self.fn = fn

    def __call__(self, *args, **kwargs):
        return function_rule(self.fn, "loop")(*args, **kwargs)


class _ForwardCall:
    """The call forward mode makes for the rule's: fn, {position or OWN: tangent},
    args, kwargs; own: whether the rule's cotangents begin with the called value's."""

    def __init__(self, rule, keywords, values, t_values):
        args, kwargs = _split(keywords, values)
        t_args, t_kwargs = _split(keywords, t_values, tangents=True)
        self.t_own, self.regroup = None, lambda own, cots: list(cots)
        if isinstance(rule, (CalleeRule, FunctionAsRule)) and _callee(rule.fn) is not None:
            fn = _callee(rule.fn)
        elif isinstance(rule, MethodRule) and args:
            fn, args, t_args, kwargs, t_kwargs = self._method(rule, args, t_args, kwargs,
                                                              t_kwargs)
        else:
            raise RuleRefused(f"hvp (forward over reverse): a call of {_name(rule)}" +
                              _INSTEAD)
        t_named = {}
        if any(t is not None for t in t_kwargs.values()):
            args, kwargs, t_args, t_named = _bound(fn, args, kwargs, t_args, t_kwargs)
        self.fn, self.args, self.kwargs = fn, tuple(args), kwargs
        self.tangents = {k: t for k, t in enumerate(t_args) if t is not None}
        self.tangents.update(t_named)     # keyword-only parameters' tangents, by name
        if self.t_own is not None:
            self.tangents = {OWN: self.t_own, **self.tangents}

    def by_parameter(self, cots, by_name):
        """The cotangents by position, a keyword-only parameter's (by_name) at its
        place among fn's parameters (where the rule's pullback gives it)."""
        cots = list(cots)
        if not by_name:
            return cots
        names = [p.name for p in _parameters(self.fn)]
        for name, cot in by_name.items():
            k = names.index(name)
            cots += [None] * (k + 1 - len(cots))
            cots[k] = cot
        return cots

    def _method(self, rule, args, t_args, kwargs, t_kwargs):
        obj, rest = args[0], args[1:]
        if rule.name == "__call__" and obj is spread_call and len(rest) == 2:
            return self._spread(rest, t_args[1:]) + (kwargs, t_kwargs)
        if rule.name == "__call__" and obj is spread_keywords and len(rest) == 3:
            return self._spread_keywords(rest, t_args[1:], kwargs, t_kwargs)
        if obj is spread_call or obj is spread_keywords:
            raise RuleRefused("hvp (forward over reverse): a call spread from a sequence "
                              "or dict" + _INSTEAD)
        if rule.name == "__call__":
            self.t_own, self.regroup = t_args[0], lambda own, cots: [own, *cots]
            return obj, rest, t_args[1:], kwargs, t_kwargs
        refusal = RuleRefused(f"hvp (forward over reverse): the method "
                              f"{type(obj).__name__}.{rule.name}()" + _INSTEAD)
        return container_method(obj, rule.name, refusal, len(args)), args, t_args, kwargs, \
            t_kwargs

    def _spread(self, rest, t_rest):
        """`f(*xs)`: f given xs's entries; the rule's cotangents (spread_call's: None,
        f's, xs's as a sequence like it: runtime/spread.py spread_pullback)."""
        fn, items = rest
        t_fn, t_items = t_rest
        self.t_own, items = t_fn, tuple(items)
        t_entries = (None,) * len(items) if t_items is None else \
            tuple(t_items[k] for k in range(len(items)))
        self.regroup = lambda own, cots: [None, own, entries_cotangent(
            list(cots[:len(items)]) + [None] * (len(items) - len(cots)), rest[1])]
        return fn, items, t_entries

    def _spread_keywords(self, rest, t_rest, kwargs, t_kwargs):
        """`f(*args, **params)`: f given both; the rule's cotangents (None, f's, args's,
        {keyword: cotangent}: runtime/spread.py keywords_pullback)."""
        fn, items, keywords = rest
        t_fn, t_items, t_keywords = t_rest
        items = tuple(items)
        self.t_own = t_fn
        t_entries = (None,) * len(items) if t_items is None else \
            tuple(t_items[k] for k in range(len(items)))
        t_named = {k: None if t_keywords is None else t_keywords.get(k) for k in keywords}

        def regroup(own, cots):
            names = [p.name for p in _parameters(self.fn)][:len(cots)]
            by_name = {k: cots[names.index(k)] for k in keywords if k in names}
            by_name = {k: v for k, v in by_name.items() if v is not None}
            return [None, own, entries_cotangent(list(cots[:len(items)]), items),
                    by_name or None]
        self.regroup = regroup
        return fn, items, t_entries, {**kwargs, **keywords}, {**t_kwargs, **t_named}


def _callee(fn):
    """What forward mode calls for a callee rule's function: for the constructor the
    compiler wrote for a class, the class (forward mode's own, which refuses what it
    cannot build: a `__post_init__` adding attributes); None for other generated code."""
    made = getattr(fn, "thunkgrad_constructor", None)
    if made is not None:
        return made[0]
    return fn if inspect.isfunction(fn) and not fn.__code__.co_filename.startswith("<") \
        else None


def _custom_parts(site, tangent):
    """(args, kwargs, the args' tangents) of a custom rule's call; a tangent reaching a
    keyword refused (a custom rule's JVP reads positions only) unless it is zero (a
    constant's, `wrt=3.0`: it adds nothing to the tangent)."""
    _, keywords, values = site
    args, kwargs = _split(keywords, values)
    t_args, t_kwargs = _split(keywords, _entries(tangent, values), tangents=True)
    if any(t is not None and not _all_zero(t) for t in t_kwargs.values()):
        raise RuleRefused("hvp (forward over reverse): a differentiated value passed by "
                          "keyword to a function with a custom rule" + _INSTEAD)
    return args, kwargs, t_args


def _all_zero(tangent):
    """Whether a keyword's tangent is a float or float array of zeros."""
    try:
        t = np.asarray(tangent)
    except Exception:       # noqa: BLE001 (a container of tangents: not known zero)
        return False
    return t.dtype.kind in "fc" and not np.any(t)


def _entries(tangent, values):
    """The tangent of the call's values entry by entry, from the site's (rule, keywords,
    values) tangent (None: none carries one)."""
    if tangent is None or tangent[2] is None:
        return (None,) * len(values)
    return tuple(None if _integral(v) else t for v, t in zip(values, tangent[2]))


def _integral(value):
    """An integer carries no derivative: the zero tangent forward mode gave it (0.0,
    `zero_tangent(1)`) must not reach the callee as a differentiated `axis=1`."""
    return isinstance(value, (int, np.integer))


def _split(keywords, values, tangents=False):
    """(positional values, {keyword: value}): the keywords' values come last, but for a
    keyword given a literal, `(name, constant)` among the keywords (flat_calls'
    rule_call_parts: it carries no derivative; tangents: None for it)."""
    values = tuple(values)
    if not keywords:
        return values, {}
    n = sum(isinstance(k, str) for k in keywords)
    given, kwargs = iter(values[len(values) - n:]), {}
    for k in keywords:
        if isinstance(k, str):
            kwargs[k] = next(given)
        else:
            kwargs[k[0]] = None if tangents else k[1]
    return values[:len(values) - n], kwargs


def _bound(fn, args, kwargs, t_args, t_kwargs):
    """The keywords carrying a tangent passed by position where they can be, a skipped
    parameter's default passed too; (args, kwargs, their tangents, the keyword-only
    parameters' tangents by name). Refused for a callee that is no plain function and
    a keyword landing in `**kwargs`."""
    code = getattr(getattr(fn, "__func__", fn), "__code__", None)
    plain = (inspect.isfunction(fn) or inspect.ismethod(fn)) and code is not None
    if not plain and not isinstance(fn, (type, Closure)):
        t_kwargs = _constant_keywords(t_kwargs)
        if not any(t is not None for t in t_kwargs.values()):
            return args, kwargs, t_args, {}
    if not plain and not isinstance(fn, type) or \
            any(p.kind == p.VAR_POSITIONAL for p in _parameters(fn)):
        raise RuleRefused(f"hvp (forward over reverse): a differentiated value passed by "
                          f"keyword to {_name(fn)}" + _INSTEAD)
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    params = [p for p in _parameters(fn) if p.kind in kinds]
    args, t_args, kwargs, t_kwargs = list(args), list(t_args), dict(kwargs), dict(t_kwargs)
    while len(args) < len(params) and any(p.name in kwargs for p in params[len(args):]):
        p = params[len(args)]
        if p.name in kwargs:
            args.append(kwargs.pop(p.name))
            t_args.append(t_kwargs.pop(p.name))
        elif p.default is not inspect.Parameter.empty:
            args.append(p.default)
            t_args.append(None)
        else:
            break
    named = {p.name: p for p in _parameters(fn)}
    t_named = {k: t for k, t in t_kwargs.items() if t is not None and not
               (k not in named and _all_zero(t))}     # a constant's zero into **kwargs
    if any(k not in named or named[k].kind != named[k].KEYWORD_ONLY for k in t_named):
        raise RuleRefused(f"hvp (forward over reverse): a differentiated value passed by "
                          f"keyword into the **kwargs of {_name(fn)}" + _INSTEAD)
    return args, kwargs, t_args, t_named


def _constant_keywords(t_kwargs):
    """The keywords' tangents with a zero one dropped, for a call of a value that is no
    plain function (a partial, a callable object; not a closure record, whose keywords
    reverse mode differentiates): reverse mode refuses a differentiated keyword there (analysis/reasons.py, the call is dispatched at run time), so its code
    reads no keyword's cotangent and a zero tangent is a constant's (`s = 0.7 * k`):
    forward mode over the call gives the same tangents without it."""
    return {k: None if t is None or _all_zero(t) else t for k, t in t_kwargs.items()}


def _parameters(fn):
    """fn's parameters as a call passes them (a class's: its constructor's, no self)."""
    try:
        return list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return [inspect.Parameter("args", inspect.Parameter.VAR_POSITIONAL)]


def _name(fn):
    return getattr(fn, "__qualname__", None) or getattr(fn, "__name__", type(fn).__name__)


@registry.rrule(rule_call, jvp=rule_call_jvp)
def rule_call_rule(site):
    raise RuleRefused("reverse mode over a flat gradient's call is not supported" + _INSTEAD)


@registry.rrule(rule_cotangents, jvp=rule_cotangents_jvp)
def rule_cotangents_rule(g, site):
    raise RuleRefused("reverse mode over a callee's cotangents is not supported" + _INSTEAD)
