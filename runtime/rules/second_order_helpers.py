"""Cotangents of two VJP helpers that generated forward-mode code calls inside JVP
terms (runtime/rules/second_order.py registers them), so that hvp, hessian and grad of
grad (reverse mode over `<name>_jvp`) take a power with a differentiated exponent and
the 2-norm of an array:

    x ** y      tangent from y:  pow_exponent_vjp(t_y, ans, x, y) = t_y * ans * log x
    norm(x)     slopes:          norm_vjp(1, ans, x, None, None, False) = x / ans

Each is a product, so each factor's cotangent is the cotangent times the others. Other
norms (an `ord`, an `axis`, keepdims) are refused when the code runs (ComplexRefused,
raised again by the public API as a TransformError at the user's line).
"""
import math

import numpy as np

from ..complex_safety import ComplexRefused
from ..helpers import unbroadcast
from ..registry import template_helper
from ..thunks import unthunk


def _log_and_slope(x):
    """(log x, 1 / x) where x > 0, (0, 0) elsewhere: pow_exponent_vjp's log (0 at 0)."""
    if isinstance(x, (int, float)):
        return (math.log(x), 1.0 / x) if x > 0 else (0.0, 0.0)
    x = np.asarray(x)
    safe = np.where(x > 0, x, 1)
    return np.log(safe), np.where(x > 0, 1 / safe, 0)


@template_helper
def pow_exponent_vjp_vjp(g, slopes_g, answer, x, y, part):
    """Cotangent of part 0 (slopes_g), 1 (answer) or 2 (x) in
    pow_exponent_vjp(slopes_g, answer, x, y) = unbroadcast(slopes_g * answer * log x, y)."""
    if np.iscomplexobj(answer) or np.iscomplexobj(x):
        raise ComplexRefused("hvp/hessian: the second derivative of `x ** y` in y is "
                             "written for real powers Instead: differentiate a real power")
    log, slope = _log_and_slope(x)
    others = [(answer, log), (slopes_g, log), (slopes_g * answer, slope)][part]
    shape = np.broadcast_shapes(*(np.shape(v) for v in (slopes_g, answer, x)))
    spread = np.broadcast_to(unthunk(g), shape)
    return unbroadcast(spread * others[0] * others[1], (slopes_g, answer, x)[part])


@template_helper
def norm_vjp_vjp(g, slopes_g, answer, x, ord, axis, keepdims, part):
    """Cotangent of part 0 (slopes_g), 1 (answer) or 2 (x) in norm_vjp(slopes_g,
    answer, x, None, None, False) = slopes_g * x / answer (0 where answer is 0): the
    2-norm of all of x's entries (a real array or number); another norm is refused."""
    if ord is not None or axis is not None or keepdims or np.asarray(x).dtype.kind != "f":
        raise ComplexRefused("hvp/hessian: the second derivative of np.linalg.norm is "
                             "written for the 2-norm of all of a real array's entries "
                             "(no ord, axis or keepdims) Instead: write that norm as "
                             "np.sqrt(np.sum(x ** 2, axis))")
    g = unthunk(g)
    if answer == 0:
        return 0.0 * x if part == 2 else 0.0 * answer
    if part == 0:
        return np.sum(g * x) / answer
    if part == 1:
        return -slopes_g * np.sum(g * x) / answer ** 2
    return g * (slopes_g / answer)


@template_helper
def pow_exponent_x_jvp(t_x, slopes_g, answer, x, y):
    """Tangent of pow_exponent_vjp(slopes_g, answer, x, y) from x: slopes_g * answer *
    t_x / x where x > 0 (its log is 0 elsewhere), summed to y's shape."""
    _, slope = _log_and_slope(x)
    return unbroadcast(np.broadcast_to(slopes_g * answer * slope * t_x, np.broadcast_shapes(
        *(np.shape(v) for v in (slopes_g, answer, x, t_x)))), y)


@template_helper
def norm_answer_jvp(t_answer, slopes_g, answer, x):
    """Tangent of norm_vjp(slopes_g, answer, x, None, None, False) = slopes_g * x /
    answer from answer: -slopes_g * x * t_answer / answer ** 2 (0 where answer is 0)."""
    if answer == 0:
        return 0.0 * x
    return -slopes_g * x * (t_answer / answer ** 2)
