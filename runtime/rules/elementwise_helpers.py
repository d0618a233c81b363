"""Template helpers for elementwise rules: the few derivatives that need a guard."""
import math

import numpy as np

from ..registry import template_helper


@template_helper
def power_base_vjp(g, x, y, power=np.power):
    """d(x ** y)/dx = y * x ** (y - 1), taken as exactly 0 where y == 0 (so 0 ** 0 is
    not 0 * inf)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        slope = g * y * power(x, y - 1)
    return np.where(np.equal(y, 0), 0, slope)


@template_helper
def cast_like(cot, x):
    """`cot` in x's float dtype: float_power computes in float64 whatever x is."""
    if isinstance(x, np.ndarray) and np.issubdtype(x.dtype, np.floating):
        return np.asarray(cot).astype(x.dtype, copy=False)
    return cot


@template_helper
def sinc_slope(x):
    """d sinc(x)/dx = (cos(pi x) - sinc(x)) / x, and 0 at x == 0."""
    safe = np.where(x == 0, 1, x)
    return np.where(x == 0, 0, (np.cos(math.pi * safe) - np.sinc(safe)) / safe)


@template_helper
def clip_inside(a, low, high, low_keyword, high_keyword):
    """Where np.clip passes `a` through (bounds included; None is no bound). The
    bounds come positionally or as the min=/max= keywords."""
    low = low if low_keyword is None else low_keyword
    high = high if high_keyword is None else high_keyword
    inside = True
    if low is not None:
        inside = inside & (a >= low)
    if high is not None:
        inside = inside & (a <= high)
    return inside
