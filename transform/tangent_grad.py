"""What hvp runs per call: grad of forward mode's `<name>_tan` (the tangent alone,
the tangents its first parameters: transform/forward_pipeline.py), made once per
compiled forward rule, so grad's per-call fast path (parameters, wrt and compiled rules
resolved once) serves every later hvp at the same shapes.

    tangent_gradient(rule, 1, None)(v, x, y)    d/dy <grad f(x, y), v along y> = H v
"""
import threading
import weakref

from .api import grad

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
