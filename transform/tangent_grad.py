"""What hvp runs per call: grad of forward mode's `<name>_tan` (the tangent alone,
the tangents its first parameters: transform/forward_pipeline.py), made once per
compiled forward rule, so grad's per-call fast path (parameters, wrt and compiled rules
resolved once) serves every later hvp at the same shapes.

    tangent_gradient(rule, 1, None)(v, x, y)    d/dy <grad f(x, y), v along y> = H v
"""
import threading
import weakref

from runtime import registry

from .analysis.shapes import signature_of
from .api import grad
from .public.parameters import _full_signature, _params, _wrt_names, positional_filler

_GRADIENTS = weakref.WeakKeyDictionary()   # `<name>_tan` -> {(index, policy): grad}
_LOCK = threading.Lock()


def tangent_gradient(rule, index, policy, check):
    """grad of `rule.rrule` with respect to the primal at `index` (after the one tangent
    parameter); `check()` runs before one is first made (it raises to refuse)."""
    fn = rule.rrule
    made = _GRADIENTS.get(fn)
    gradient = made.get((index, policy)) if made is not None else None
    if gradient is None:
        check()
        gradient = grad(fn, 1 + index, policy=policy)
        with _LOCK:
            _GRADIENTS.setdefault(fn, {})[(index, policy)] = gradient
    return gradient


def position(plain, name):
    """The position of the differentiated parameter `name`: hvp and hessian take the
    arguments by position, so a keyword-only one is a TypeError (a ValueError from
    list.index before session 34)."""
    params = _params(plain)
    if name not in params:
        raise TypeError(f"hvp/hessian: {name!r} is a keyword-only parameter of "
                        f"{plain.__name__}, and hvp and hessian take the differentiated "
                        f"arguments by position: make it positional, or take jvp of "
                        f"grad(f, {name!r})")
    return params.index(name)


_RESOLVED = weakref.WeakKeyDictionary()    # the user's function -> {wrt: _Resolved}


class _Resolved:
    """hvp's view of a function's parameters for one `wrt`: the argument's name and
    position, and how a call's primals become the signature a rule is specialised to."""

    def __init__(self, plain, wrt):
        (self.name,), _ = _wrt_names(plain, wrt)
        self.index = position(plain, self.name)
        self.fill = positional_filler(plain)       # None: bind each call's arguments
        self.defaults = getattr(plain, "__defaults__", None)
        self.generation = registry.generation

    def signature(self, plain, primals):
        filled = self.fill(primals, {}) if self.fill is not None else None
        return signature_of(filled) if filled is not None else \
            _full_signature(plain, primals, {})


def resolved(plain, wrt):
    """(name, index, signature(primals)) for hvp of `plain` with respect to `wrt`,
    resolved once while plain's defaults and the rule registry stay as they were (what
    grad's GradientFunction keeps, public/gradient_function.py)."""
    try:
        known = _RESOLVED.get(plain)
    except TypeError:                       # cannot be weakly referenced: resolve each call
        known = None
    found = known.get(wrt) if known is not None else None
    if found is None or found.generation != registry.generation or \
            getattr(plain, "__defaults__", None) is not found.defaults:
        found = _Resolved(plain, wrt)
        try:
            with _LOCK:
                _RESOLVED.setdefault(plain, {})[wrt] = found
        except TypeError:
            pass
    return found.name, found.index, lambda primals: found.signature(plain, primals)
