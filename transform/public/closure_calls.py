"""Calling a closure record (runtime/closures.py) from compiled code: its template's
rule, compiled with the closure's variables as leading parameters, called with the
record's values and the call's arguments; the cotangents of those values are the
record's own cotangent (a tuple, like the record's env):

    f(x)  with f = Closure(<lambda t: t * w>, (w,))
          ->  out, pullback = rule_of_template(w, x)
              pullback(g) = ((gw,), gx)       # (f's cotangent, x's cotangent)
"""
import functools

from runtime.closures import Closure
from runtime.thunks import unthunk
from ..errors import TransformError
from .complex_args import real_checked
from .parameters import _params


def closure_call(closure, args, kwargs, policy, varied, compiler):
    """(out, pullback) of `closure(*args, **kwargs)`; varied: positions in (closure,
    *args) carrying a derivative (None: all)."""
    if closure.expired:
        raise TransformError(closure.stale_message(), hint="bind the value as a default "
                             "parameter (`lambda t, w=w: t * w`)")
    env, free = closure.env, closure.free_count
    defaulted = closure.defaulted(args, kwargs)     # passed by keyword: names known
    params = closure.template.__code__.co_varnames
    filled = {params[k]: value for k, value in defaulted.items()}
    names = tuple(closure.template.__code__.co_freevars) + \
        tuple(_params(closure.template, keyword_only=True))
    if varied is not None:
        varied = _lifted_positions(varied, free, len(args), defaulted)
        varied = tuple(names[k] for k in varied if k < len(names))
    compiled = compiler(closure.template, names, policy, consumed=False, varied=varied)
    real_checked(compiled, (*env[:free], *args), {**filled, **kwargs})
    out, pullback = compiled.rrule(*env[:free], *args, **filled, **kwargs)

    def closure_pullback(g):
        cots = tuple(pullback(g))
        own = cots[:free] + _default_cotangents(cots[free:], closure, defaulted)
        own = tuple(unthunk(c) for c in own)   # a container's entries are values
        return (own,) + cots[free:]      # as a function's: one per parameter
    return out, closure_pullback


def _lifted_positions(varied, free, given, defaulted):
    """Positions in (free..., params...) carrying a derivative: the free variables and
    the parameters left to their defaults if the closure itself does, the given
    arguments if they do."""
    own = 0 in varied
    positions = list(range(free)) if own else []
    positions += [free + k - 1 for k in varied if 0 < k <= given]
    if own:
        positions += [free + k for k in sorted(defaulted)]
    return tuple(positions)


def _default_cotangents(param_cots, closure, defaulted):
    """The cotangents of the record's default values: those of the parameters the call
    left to their defaults (None for the others)."""
    defaults = closure.env[closure.free_count:]
    first = closure.template.__code__.co_argcount - len(defaults)
    return tuple(param_cots[first + k] if first + k in defaulted and
                 first + k < len(param_cots) else None for k in range(len(defaults)))


def partial_pullback(partial, pullback, given=()):
    """The pullback of `partial(*args)` given that of `partial.func(*bound, *args)`: the
    partial's own cotangent is (func's, the bound arguments', the keywords') as
    runtime/closures.make_partial's rule reads it; a keyword the call gives again
    (`given`) is not the partial's, which gets none for it."""
    bound = len(partial.args)
    names = _names(partial.func)

    def split(g):
        cots = tuple(pullback(g))
        params = cots[1:]
        keywords = {k: unthunk(params[names.index(k)]) for k in partial.keywords
                    if k in names and names.index(k) < len(params) and k not in given}
        own = (unthunk(cots[0]), tuple(unthunk(c) for c in params[:bound]), keywords)
        return (own,) + params[bound:]
    return split


def _names(func):
    """The parameters whose cotangents func's pullback gives, in order: a closure's
    template's; a partial's over a closure, its function's after the bound ones
    (inspect.signature sees a closure record as `(*args, **kwargs)`)."""
    inner = func
    while isinstance(inner, functools.partial):
        inner = inner.func
    if isinstance(func, functools.partial) and isinstance(inner, Closure):
        return _names(func.func)[len(func.args):]
    return _params(func.template if isinstance(func, Closure) else func, keyword_only=True)
