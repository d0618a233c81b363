"""Reverse rules for what generated forward-mode code calls from the compiler: a call
of the user's own function, and a @property's tangent. hvp is reverse mode over
`<name>_jvp` (transform/hessians.py); a call inside it is reverse over the callee's
`_jvp`, by the same route:

    y, y_dot = call_jvp(f, {'x': x_dot}, W, x)
        pullback (g_y, g_y_dot) -> (None, {'x': cotangent of x_dot}, W's, x's):
        vjp of f's `f_jvp(W, x, *, x_dot)` with respect to W, x and x_dot

The runtime rules for the other helpers are in runtime/rules/tangents.py;
`refuse_helpers` refuses generated code that still reaches a helper without one.
"""
import functools
import inspect
import types

import numpy as np

from runtime import registry
from runtime.closures import Closure, expire_closure
from runtime.forward import zero_tangent
from runtime.rules import tangents_helpers
from runtime.rules.reverse_containers_helpers import PROPERTY_HVP
from runtime.thunks import unthunk

from .errors import TransformError, callee_words
from .forward_api import _compiled, _constructor, bound_call, call_jvp, call_jvp_keywords
from .forward.calls import _collects, container_method
from .forward.methods import user_method
from .forward_closures import OWN, is_value, lifted_params, lowered
from .forward_nested import _by_name, _moved, _pair_function, _split, call_jvp_tangent, \
    call_jvp_tangent_jvp
from .frontend.match import is_sequence_of
from .frontend.varargs import named_callee
from .generated_calls import by_source, refuse_helpers
from .value_calls import calling, positional, wrappable
from .public.parameters import _full_signature

# transform.api's `_forward`, handed over when api imports this module (api imports it
# so that call_jvp's reverse rule is registered on every route: hvp, grad of grad)
API = {}


def provide(forward):
    API["forward"] = forward


@registry.rrule(call_jvp, jvp=call_jvp_tangent)
def call_jvp_rule(fn, tangents, /, *args, **kwargs):
    """(fn(*args, **kwargs), its tangent) and the pullback of that pair (a keyword's
    cotangent is call_jvp_keywords's to give: the compiler passes no differentiated value
    to call_jvp by keyword)."""
    out, pullback = keyword_rule(fn, tangents, args, kwargs)

    def call_jvp_pullback(g):
        own, tangent_cots, arg_cots, _ = pullback(g)
        return (own, tangent_cots) + tuple(arg_cots)
    return out, call_jvp_pullback


def keyword_rule(fn, tangents, args, kwargs):
    """(the pair, pullback) where pullback(g) gives (fn's own cotangent: a closure
    record's or partial's, the tangents' by key, the arguments' by position, the keyword
    arguments' by name)."""
    if is_value(fn) or OWN in tangents:   # a closure record's or partial's function
        return _lowered_call(fn, tangents, args, kwargs)
    fn = named_callee(_constructor(fn), len(args))   # a class: its __init__; `*args`
    bound = bound_call(fn, tangents, args)
    if bound is not None:                 # `model(x)`: type(model).__call__(model, x)
        return _bound_call(tangents, bound, kwargs)
    if _by_value(fn, tangents, args, kwargs):
        return _value_call(fn, tangents, args, kwargs)
    _check_callee(fn)
    params = lifted_params(fn)
    names = tuple(params[k] if isinstance(k, int) else k for k in tangents)
    positions = tuple(k for k, a in enumerate(args) if _differentiable(a))
    keywords = _keywords(fn, kwargs, tangents)
    if not names:                       # no tangent: the value's own reverse, a zero tangent
        return _plain_call(fn, positions, keywords, args, kwargs)
    rule = _compiled(fn, names, _full_signature(fn, args, kwargs))
    refuse_helpers(fn, rule.rrule)
    given = {rule.tangent_params[n]: t for n, t in zip(names, tangents.values())}
    wrt = tuple(params[k] for k in positions) + keywords + tuple(given)
    out, pullback = _reverse(rule.rrule, wrt, args, {**kwargs, **given})

    def keyword_pullback(g):
        cots = pullback(_pair(g, out))
        by_position = {k: _as_given(c, args[k]) for k, c in zip(positions, cots)}
        by_name = {n: _as_given(c, kwargs[n]) for n, c in
                   zip(keywords, cots[len(positions):])}
        tangent_cots = {k: _as_given(c, tangents[k])
                        for k, c in zip(tangents, cots[len(positions) + len(keywords):])}
        return None, tangent_cots, tuple(by_position.get(k) for k in range(len(args))), \
            by_name
    return out, keyword_pullback


def _keywords(fn, kwargs, tangents):
    """The names of the keyword arguments carrying a tangent: reverse mode over this code
    differentiates them (a value without one depends on no differentiated value); one
    landing in fn's `**kwargs` is refused (its compiled code does not differentiate it)."""
    named = inspect.signature(fn).parameters
    found = tuple(n for n in kwargs if n in tangents)
    for n in found:
        if n not in named or named[n].kind is named[n].VAR_KEYWORD:
            raise TransformError(f"hvp/hessian: a differentiated value passed by keyword "
                                 f"into {fn.__name__}'s **kwargs as {n!r}: its compiled "
                                 "code does not differentiate what **kwargs holds",
                                 hint="name the parameter in the function's def")
    return found


def _lowered_call(fn, tangents, args, kwargs):
    """keyword_rule of the plain call a closure record or partial stands for, its
    cotangents regrouped as the value's own and the call's (forward_closures.py)."""
    plain = lowered(fn, tangents, args, kwargs)
    out, pullback = keyword_rule(plain.fn, plain.tangents, plain.args, plain.kwargs)

    def lowered_pullback(g):
        own, t_cots, a_cots, k_cots = pullback(g)
        own, given, a_cots, k_cots = plain.regroup(own, t_cots, a_cots, k_cots)
        return own, given, tuple(a_cots), k_cots
    return out, lowered_pullback


def _bound_call(tangents, bound, kwargs):
    """keyword_rule of a bound method or a callable user object (forward_api.bound_call):
    the function's, given the receiver, whose cotangent is dropped (it carries no
    tangent: a differentiated receiver's method is called as such, forward/calls.py)."""
    func, shifted, args = bound
    out, pullback = keyword_rule(func, shifted, args, kwargs)

    def bound_pullback(g):
        none, tangent_cots, cots, k_cots = pullback(g)
        return none, {k: tangent_cots[j] for k, j in zip(tangents, shifted)}, cots[1:], \
            k_cots
    return out, bound_pullback


def _by_value(fn, tangents, args, kwargs):
    """Whether fn is a value called through a function of the call's arity
    (transform/value_calls.py), its keywords not that function's own names: a function
    with a template rule other than a Python def, or runtime's (an ndarray method as a
    function, `compress`: forward/calls.py container_method gives it)."""
    taken = {"fn"} | {positional(k) for k in range(len(args))}
    runtime_def = (getattr(fn, "__module__", None) or "").split(".")[0] == "runtime"
    return (not isinstance(fn, types.FunctionType) or runtime_def) and wrappable(fn) and \
        not taken & set(kwargs) and \
        all(_wrapper_param(fn, k, args, kwargs) is not None for k in tangents)


def _wrapper_param(fn, key, args, kwargs):
    """The wrapper's parameter for a tangent's key: a position's `a<k>`, a keyword's
    own name, a positional parameter's name its position's (None: not found)."""
    if isinstance(key, int) or key in kwargs:
        return positional(key) if isinstance(key, int) else key
    try:
        params = list(inspect.signature(fn).parameters)
    except (TypeError, ValueError):
        return None
    k = params.index(key) if key in params else len(args)
    return positional(k) if k < len(args) else None


def _value_call(fn, tangents, args, kwargs):
    """keyword_rule of `call_<name>(a0, ..)` calling fn, the tangents renamed."""
    names = {k: _wrapper_param(fn, k, args, kwargs) for k in tangents}
    out, pullback = keyword_rule(calling(fn, len(args), tuple(kwargs)),
                                 {names[k]: t for k, t in tangents.items()}, args, kwargs)

    def value_call_pullback(g):
        none, tangent_cots, cots, k_cots = pullback(g)
        return none, {k: tangent_cots[names[k]] for k in tangents}, cots, k_cots
    return out, value_call_pullback


def _reverse(fn, wrt, args, kwargs):
    """(fn(*args, **kwargs), pullback) with the cotangents of `wrt` (names) as compiled
    code passes them on (a record's as a dict by field, computed: no Thunks); the
    public vjp would turn them into the user's forms."""
    if not wrt:
        return fn(*args, **kwargs), lambda g: ()
    out, pullback = API["forward"](fn, None, wrt, args, kwargs)
    return out, lambda g: tuple(unthunk(c) for c in pullback(g))


def _plain_call(fn, positions, keywords, args, kwargs):
    params = lifted_params(fn)
    wrt = tuple(params[k] for k in positions) + keywords
    out, pullback = _reverse(fn, wrt, args, kwargs)

    def plain_pullback(g):
        cots = pullback(_pair(g, (out, None))[0])
        by_position = dict(zip(positions, cots))
        return None, {}, tuple(by_position.get(k) for k in range(len(args))), \
            dict(zip(keywords, cots[len(positions):]))
    return (out, zero_tangent(out)), plain_pullback


def _check_callee(fn):
    if not isinstance(fn, types.FunctionType) or _collects(fn) or \
            (fn.__module__ or "").split(".")[0] in ("runtime", "transform") and \
            not by_source(fn):
        raise TransformError(f"hvp/hessian: reverse mode over the tangent of a call of "
                             f"{callee_words(fn)}, a {type(fn).__name__} value (or a "
                             "function taking *args whose named parameters the call does "
                             "not fill by position), is not supported yet",
                             hint="call a function defined with def, or compute H v by "
                             "finite differences of grad")


def _differentiable(value):
    """Whether vjp can take `value` as a differentiated argument: a float leaf somewhere
    (containers and records looked into; other objects, a user object with a `__call__`
    too, left to vjp to judge)."""
    if isinstance(value, Closure):      # a record of the values it reads
        return _differentiable(value.env)
    if isinstance(value, functools.partial):
        return _differentiable((value.func, value.args, value.keywords))
    if isinstance(value, (bool, np.bool_, int, np.integer, str, bytes, type(None), range,
                          types.FunctionType, type)):
        return False
    if isinstance(value, (float, np.floating)):
        return True
    if isinstance(value, np.ndarray):
        return value.dtype.kind == "f"
    if isinstance(value, (tuple, list)):
        return any(_differentiable(v) for v in value)
    if isinstance(value, dict):
        return any(_differentiable(v) for v in value.values())
    if callable(value) and user_method(value, "__call__") is not None:
        return True                     # a user object with a __call__ (a layer)
    return not callable(value) and not isinstance(value, (complex, np.complexfloating))


def _as_given(cot, value):
    """A list or tuple argument's cotangent as compiled code may give it, one array
    stacking the entries', made a list of them again: the caller's generated code pops
    it entry by entry (`items.append(t)` reversed)."""
    if type(value) in (list, tuple) and type(cot) is np.ndarray and \
            cot.shape[:1] == (len(value),) and \
            all(np.shape(v) == cot.shape[1:] for v in value):
        return type(value)(cot[k] for k in range(len(value)))
    return cot


def _pair(g, out):
    """The cotangent of the pair (value, tangent), None parts as zeros; a list part's
    given stacked in one array (a generator helper's items read by np.array) as a list."""
    g = unthunk(g)
    parts = (None, None) if g is None else tuple(unthunk(p) for p in g)
    return tuple(zero_tangent(o) if p is None and o is not None else _as_given(p, o)
                 for p, o in zip(parts, out))


def _getter_vjp(getter, obj, tangent, g):
    """(tangent's cotangent, obj's) for the tangent g-weighted of a @property's getter,
    `call_jvp(getter, {first: tangent}, obj)[1]` (runtime/forward.py's getter case)."""
    first = next(iter(inspect.signature(getter).parameters))
    _, pullback = call_jvp_rule(getter, {first: tangent}, obj)
    _, tangent_cots, obj_cot = pullback((None, g))
    return tangent_cots[first], obj_cot


tangents_helpers.PROVIDED["getter_vjp"] = _getter_vjp
# a container's method looked up by the receiver's type (forward/calls.py): the type only
registry.nondiff(container_method, why=registry.SHAPE)
# a closure argument marked stale once its call is over (lowering/functions_as_values.py):
# generated forward code keeps the user's `expire_closure(f)` statements
registry.nondiff(expire_closure, why=registry.ZERO)
# whether a `case [a, b]:` pattern matches (transform/frontend/match.py): a bool
registry.nondiff(is_sequence_of, why=registry.ZERO)


# ---- call_jvp_tangent (forward over forward: transform/forward_nested.py) ----------

@registry.rrule(call_jvp_tangent, jvp=call_jvp_tangent_jvp)
def call_jvp_tangent_rule(tangents, fn, given, /, *args, **kwargs):
    """call_jvp_tangent's value and pullback: reverse mode over the pair function of
    the pair function (its arguments, its given tangents and their tangents)."""
    fn = named_callee(fn, len(args))
    t_given, t_args = _split(fn, tangents, len(args))
    t_named = _by_name(fn, t_args)
    moved = _moved(fn, given, args, kwargs, t_given, t_named)
    if moved is None:
        (_, out_tangent), pullback = call_jvp_rule(fn, t_named, *args, **kwargs)
        out = out_tangent, zero_tangent(out_tangent)
        return out, lambda g: _from_plain(fn, pullback(_plain_cotangent(g)), t_named, args)
    pair_fn, inner, kw = moved
    names = _pair_function(fn, given, args, kwargs)[1]
    return _reverse_pair(fn, pair_fn, inner, kw, names, (given, t_given), args)


def _plain_cotangent(g):
    """The cotangent of (out_tangent, a zero) as call_jvp's pair's (out, out_tangent)."""
    g = unthunk(g)
    return None, None if g is None else unthunk(g[0])


def _from_plain(fn, cots, t_named, args):
    """call_jvp_rule's cotangents (None, {name: of t}, args') as call_jvp_tangent's."""
    params = list(inspect.signature(fn).parameters)
    t_cots = cots[1]
    tangents = (None, None) + tuple(t_cots.get(params[k]) for k in range(len(args)))
    return (tangents, None, None) + tuple(cots[2:])


def _reverse_pair(fn, pair_fn, inner, kw, names, given_pair, args):
    """(value, pullback) of call_jvp(pair_fn, inner, *args, **kw)[1]."""
    given, t_given = given_pair
    twice = _compiled(pair_fn, tuple(inner), _full_signature(pair_fn, args, kw))
    params = list(inspect.signature(fn).parameters)
    positions = tuple(k for k, a in enumerate(args) if _differentiable(a))
    keys = {names[n]: k for k, n in ((k, _by_name_key(params, k)) for k in given)}
    wrt = tuple(params[k] for k in positions) + tuple(keys) + \
        tuple(twice.tangent_params[m] for m in inner)
    dots = {twice.tangent_params[m]: t for m, t in inner.items()}
    out, pullback = _reverse(twice.rrule, wrt, args, {**kw, **dots})

    def call_jvp_tangent_pullback(g):
        cots = pullback((zero_tangent(out[0]), _pair(g, out[1])))
        by_arg = dict(zip(positions, cots))
        given_cots = dict(zip(keys.values(), cots[len(positions):len(positions) + len(keys)]))
        of_inner = dict(zip(inner, cots[len(positions) + len(keys):]))
        t_given_cots = {k: of_inner.get(names[_by_name_key(params, k)]) for k in t_given or {}}
        tangents = (None, t_given_cots) + tuple(of_inner.get(params[k])
                                                for k in range(len(args)))
        return (tangents, None, given_cots) + tuple(by_arg.get(k) for k in range(len(args)))
    return out[1], call_jvp_tangent_pullback


def _by_name_key(params, k):
    return params[k] if isinstance(k, int) else k




# ---- call_jvp_keywords: call_jvp with its keywords in one dict (forward/calls.py) ----

def _keywords_tangent(tangents, fn, given, keywords, /, *args):
    """call_jvp_keywords's tangent (forward over forward): call_jvp's, when no keyword
    carries a second tangent."""
    t_fn, t_given, t_keywords, *t_args = list(tangents) + [None] * (3 + len(args) -
                                                                   len(tangents))
    if any(t is not None for t in (t_keywords or {}).values()):
        raise TransformError("a third derivative through a keyword argument of a call "
                             "(jvp of hvp) is not supported yet",
                             hint="pass the value by position")
    return call_jvp_tangent((t_fn, t_given, *t_args), fn, given, *args, **keywords)


@registry.rrule(call_jvp_keywords, jvp=_keywords_tangent)
def call_jvp_keywords_rule(fn, tangents, keywords, /, *args):
    """call_jvp's value and pullback, the keywords' cotangents as a dict by name."""
    out, pullback = keyword_rule(fn, tangents, args, keywords)

    def call_jvp_keywords_pullback(g):
        own, tangent_cots, arg_cots, k_cots = pullback(g)
        return (own, tangent_cots, k_cots or None) + tuple(arg_cots)
    return out, call_jvp_keywords_pullback


def property_hvp(getter, obj, t_obj, g):
    """d/dt of `obj.name`'s cotangent at g (the getter's VJP) along obj's tangent t_obj:
    the gradient in obj of <g, the getter's tangent along t_obj> (hvp forward over
    reverse through a @property: runtime/rules/reverse_containers_helpers.py)."""
    (value, _), pullback = call_jvp_rule(getter, {0: t_obj}, obj)
    return pullback((zero_tangent(value), g))[2]


PROPERTY_HVP[:] = [property_hvp]
