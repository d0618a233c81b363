"""Second order through np.gradient's JVP function (session 39, secorder2): a reverse rule
for gradient_jvp, so hvp, hessian and grad of grad take np.gradient (its JVP passes the
spacings on as *varargs, which reverse mode does not differentiate from source).

With the spacings' tangents zero (None, or a constant's zero tangent under hvp forward
over reverse), gradient_jvp((t_f, t_h...), f, *varargs) is np.gradient(t_f, *varargs),
and its term -out t_h / h (out = np.gradient(f, ...)) has the slope -out / h in t_h, as
np.gradient has in h. So the cotangents are np.gradient's own (runtime/rules/
differences_helpers.py gradient_rule): at t_f for t_f and the spacings, at f for the t_h;
none for f. A nonzero tangent of a spacing has no second derivative here: refused.
"""
import numpy as np

from ..complex_safety import RuleRefused
from ..jvp import NoJvp
from ..registry import rrule
from ..thunks import unthunk
from .differences_helpers import gradient_jvp, gradient_rule


def _moving(tangents):
    """Whether any of `tangents` is nonzero (None and zeros move nothing)."""
    return any(t is not None and np.any(np.asarray(t) != 0) for t in tangents)


def gradient_jvp_tangent(tangents, inner, f, *varargs, axis=None, edge_order=1):
    """gradient_jvp's own tangent (third order): linear in its tangents, constant in f,
    while no spacing moves."""
    outer = tangents[0] or (None,)
    if _moving(inner[1:]) or _moving(tangents[2:]) or _moving(outer[1:]):
        raise NoJvp("np.gradient's third derivative in its spacings has no rule")
    if outer[0] is None:
        return None
    return gradient_jvp(outer, f, *varargs, axis=axis, edge_order=edge_order)


@rrule(gradient_jvp, jvp=gradient_jvp_tangent)
def gradient_jvp_rule(tangents, f, *varargs, axis=None, edge_order=1):
    """(gradient_jvp(...), pullback): np.gradient's cotangents (module docstring)."""
    if _moving(tangents[1:]):
        raise RuleRefused("the second derivative of np.gradient in its spacings has no "
                          "rule. Instead: differentiate in f only (spacings constant)")
    ans = gradient_jvp(tangents, f, *varargs, axis=axis, edge_order=edge_order)
    t_f = tangents[0]
    _, at_t = gradient_rule(np.zeros(np.shape(f)) if t_f is None else t_f, *varargs,
                            axis=axis, edge_order=edge_order)
    _, at_f = gradient_rule(f, *varargs, axis=axis, edge_order=edge_order)

    def pullback(g):
        in_t, in_f = at_t(g), at_f(g)
        cots = (None if t_f is None else unthunk(in_t[0]),) + tuple(   # (a tuple's
            None if t is None else unthunk(in_f[1 + k])                # entries: values)
            for k, t in enumerate(tangents[1:]))
        return (cots, None) + tuple(in_t[1:])
    return ans, pullback
