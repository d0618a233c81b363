"""Cotangents of the VJP helper that generated forward-mode code calls inside the JVP
term of a power with a differentiated exponent (runtime/rules/second_order.py registers
it), so that hvp, hessian and grad of grad (reverse mode over `<name>_jvp`) take it:

    x ** y      tangent from y:  pow_exponent_vjp(t_y, ans, x, y) = t_y * ans * log x

A product, so each factor's cotangent is the cotangent times the others. (The norm's
slopes, norm_vjp, have their rule in runtime/rules/tangents.py: the 2-norm family with
axis, keepdims and "fro".)
"""
import math

import numpy as np

from ..complex_safety import ComplexRefused, RuleRefused
from ..helpers import exponent_log, unbroadcast, weighted
from ..registry import template_helper
from ..thunks import unthunk


def _log_and_slope(x):
    """(log x, 1 / x) where x > 0, (0, 0) where x == 0, (NaN, NaN) where x < 0:
    pow_exponent_vjp's log (runtime/helpers.py exponent_log) and its slope."""
    log = exponent_log(x)
    if isinstance(x, (int, float)):
        return log, 1.0 / x if x > 0 else 0.0 if x == 0 else math.nan
    x = np.asarray(x)
    safe = np.where(x > 0, x, 1)
    slope = np.where(x > 0, 1 / safe, 0)
    return log, np.where(x < 0, np.nan, slope) if np.any(x < 0) else slope


@template_helper
def pow_exponent_vjp_vjp(g, slopes_g, answer, x, y, part):
    """Cotangent of part 0 (slopes_g), 1 (answer) or 2 (x) in
    pow_exponent_vjp(slopes_g, answer, x, y) = unbroadcast(slopes_g * answer * log x, y)."""
    if np.iscomplexobj(answer) or np.iscomplexobj(x):
        raise ComplexRefused("hvp/hessian: the second derivative of `x ** y` in y is "
                             "written for real powers. Instead: differentiate a real power")
    log, slope = _log_and_slope(x)
    shape = np.broadcast_shapes(*(np.shape(v) for v in (slopes_g, answer, x)))
    spread = np.broadcast_to(unthunk(g), shape)
    weight, factor = [(spread, answer * log), (spread * slopes_g, log),
                      (spread * slopes_g, answer * slope)][part]
    return unbroadcast(weighted(weight, factor), (slopes_g, answer, x)[part])


@template_helper
def pow_exponent_x_jvp(t_x, slopes_g, answer, x, y):
    """Tangent of pow_exponent_vjp(slopes_g, answer, x, y) from x: slopes_g * answer *
    t_x / x where x > 0 (its log is 0 elsewhere), summed to y's shape."""
    _, slope = _log_and_slope(x)
    shape = np.broadcast_shapes(*[np.shape(v) for v in (slopes_g, answer, x, t_x)])
    return unbroadcast(np.broadcast_to(weighted(slopes_g * t_x, answer * slope), shape), y)


@template_helper
def power_base_second(g, slopes_g, x, y, part):
    """Cotangent of part 1 (x) or 2 (y) in power_base_vjp(slopes_g, x, y) =
    slopes_g * y * x ** (y - 1) (0 where y == 0), spread over the broadcast shape: in x
    slopes_g * y * (y - 1) * x ** (y - 2) (0 where y is 0 or 1), in y slopes_g * x ** (y
    - 1) * (1 + y log x), for x > 0 (a base <= 0 has no derivative in y: refused)."""
    if np.iscomplexobj(x) or np.iscomplexobj(y) or np.iscomplexobj(slopes_g):
        raise ComplexRefused("hvp/hessian: the second derivative of np.power in its base is "
                             "written for real powers. Instead: differentiate a real power")
    with np.errstate(divide="ignore", invalid="ignore"):
        if part == 1:
            slope = slopes_g * y * (y - 1) * np.power(x, y - 2)
            slope = np.where(np.equal(y, 0) | np.equal(y, 1), 0, slope)
        else:
            if np.any(np.asarray(x) <= 0):
                raise RuleRefused("hvp/hessian of np.power(x, y) in y needs x > 0")
            slope = slopes_g * np.power(x, y - 1) * (1 + y * np.log(x))
    return unbroadcast(g * slope, (slopes_g, x, y)[part])
