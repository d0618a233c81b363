"""Library calls met only at run time that need more than their rule: a random draw
through a generator the compiler could not see (its method's rule, or a refusal where a
differentiated value reaches a parameter with no rule), and a frozen SciPy
distribution's moments (SciPy's own code, refused with what to write instead)."""
import numpy as np

import runtime
from ..errors import TransformError


def inexact(value):
    """A value that may carry a derivative (a float or a float array)."""
    return isinstance(value, (float, complex, np.inexact)) or \
        isinstance(value, np.ndarray) and np.issubdtype(value.dtype, np.inexact)


_MOMENTS = {"mean", "std", "var", "median", "moment", "stats", "entropy", "interval"}


def refuse_frozen_moment(obj, name):
    """`norm(mu, s).mean()` where mu is being differentiated: SciPy's own code, with
    no rule; say what to write (the moment from the parameters) instead."""
    if name in _MOMENTS and type(obj).__module__.startswith("scipy.stats"):
        raise TransformError(
            f"the frozen distribution's .{name}() has no derivative rule (SciPy's own "
            "code is not compiled)",
            hint="write it from the distribution's parameters (`norm(mu, s).mean()` is "
                 "`mu`, `.std()` is `s`, `.var()` is `s ** 2`), or compute it outside the "
                 "differentiated function")


def random_draw(obj, name, args, kwargs, varied=None):
    """rng.name(...) for a generator the compiler could not see: its method's rule.

    Called only where an argument is being differentiated (the compiler emits a
    plain call otherwise), so a draw whose reason is NONE is refused, and so is a
    template rule's parameter without one (gamma's shape) that a value being
    differentiated reaches (`varied`: positions in (rng, *args); any float keyword).
    """
    rule = runtime.lookup(getattr(type(obj), name, None))
    if rule is not None and rule.kind == "template":
        param = _untemplated(rule, args, kwargs, varied)
        if param is not None:
            raise TransformError(f"{type(obj).__name__}.{name}()'s `{param}` has no "
                                 "derivative rule for the differentiated value passed to "
                                 "it: the gradient would silently be zero",
                                 hint="draw it with that parameter not differentiated, or "
                                      "use a location-scale draw (normal, uniform, ...)")
        return rule.rrule(obj, *args, **kwargs)
    if rule is not None and rule.kind == "nondiff" and rule.reason("*") != runtime.NONE:
        out = getattr(obj, name)(*args, **kwargs)
        return out, lambda g: (None,) * (len(args) + 1)
    raise TransformError(f"{type(obj).__name__}.{name}() has no derivative rule for the "
                         "differentiated value passed to it: the gradient would silently "
                         "be zero", hint="draw outside the differentiated function, or use "
                                         "a location-scale draw (normal, uniform, ...)")


def _untemplated(rule, args, kwargs, varied):
    """The parameter with no rule (NONE) a value being differentiated reaches, or None."""
    reached = [(rule.params[k] if k < len(rule.params) else None, arg)
               for k, arg in enumerate(args, start=1) if varied is None or k in varied]
    for param, arg in reached + list(kwargs.items()):
        if inexact(arg) and param not in rule.templates and rule.reason(param) == runtime.NONE:
            return param
    return None
