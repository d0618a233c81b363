"""Template helpers for elementwise rules: the few derivatives that need a guard."""
import math

import numpy as np

from ..registry import template_helper


@template_helper
def power_base_vjp(slopes_g, x, y, power=np.power):
    """d(x ** y)/dx = y * x ** (y - 1), taken as exactly 0 where y == 0 (so 0 ** 0 is
    not 0 * inf)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        slope = slopes_g * y * power(x, y - 1)
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


_WHOLE_ARRAY = (np.dtype(np.float32), np.dtype(np.float64))
WHOLE_ARRAY_MIN = 256       # below this size NumPy's loop is as fast as five whole-array passes


@template_helper
def logaddexp_number(x, y):
    """np.logaddexp(x, y) where the compiler showed one argument is a finite number
    literal (transform/lowering/logaddexp_numbers.py): NumPy's own formula, c + ln 2 at
    a == c and else max(a, c) + log1p(exp(-|a - c|)), computed as whole-array ufuncs for
    a float32/float64 array `a` of WHOLE_ARRAY_MIN elements or more (NumPy's logaddexp
    loop calls libm's exp and log1p per element: ten times slower at 100,000 float32);
    anything else (two arrays, a bool, an infinite c, float16, a scalar) is
    np.logaddexp(x, y). Values differ from NumPy's by rounding (SIMD exp and log1p: up
    to 3 units in the last place); infinities and NaN in `a` give NumPy's values,
    without its warning for NaN."""
    a, c = (y, x) if type(x) in (int, float) else (x, y)
    if type(a) is not np.ndarray or a.dtype not in _WHOLE_ARRAY or \
            a.size < WHOLE_ARRAY_MIN or type(c) not in (int, float) or not math.isfinite(c):
        return np.logaddexp(x, y)
    tail = a - c
    np.abs(tail, out=tail)
    np.negative(tail, out=tail)
    np.exp(tail, out=tail)
    np.log1p(tail, out=tail)
    out = np.maximum(a, c)
    out += tail
    return out
