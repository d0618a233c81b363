"""Signals and sampled functions: interpolation, convolution, integration and
differences of sampled values (real values only).

np.interp is differentiated in x, fp, left and right, not in the knots xp (a
differentiated xp is refused); xp must be strictly increasing, and period= has no
rule. Its derivative in x at a knot is the right-hand slope (the segment that starts
there), and 0 at and beyond the last knot and before the first, where np.interp is
constant. np.convolve and np.correlate take the modes full, same and valid.
np.trapezoid (np.trapz on NumPy < 2.0) is differentiated in y, x and dx.
np.gradient is differentiated in f and in scalar spacings; coordinate-array
spacings get no derivative (refused when differentiated).
"""
import numpy as np

from ..registry import DIAGONAL, JOINT, LINEAR, NONE, defvjp
from ..registry import rrule
from .differences_helpers import gradient_jvp, gradient_rule

defvjp(np.interp, "x, xp, fp, left=None, right=None, period=None",
       "interp_x_vjp(g, x, xp, fp, period)", NONE,
       "interp_fp_vjp(g, x, xp, fp, left, right, period)",
       "interp_end_vjp(g, x, xp, -1)", "interp_end_vjp(g, x, xp, 1)", NONE, numeric=True,
       jvp=(DIAGONAL, None, JOINT, JOINT, JOINT))
defvjp(np.convolve, "a, v, mode='full'",
       "convolve_vjp(g, a, v, mode, 0)", "convolve_vjp(g, a, v, mode, 1)", None, numeric=True,
       jvp=LINEAR)
defvjp(np.correlate, "a, v, mode='valid'",
       "convolve_vjp(g, a, v, mode, 0, True)", "convolve_vjp(g, a, v, mode, 1, True)", None,
       numeric=True, jvp=LINEAR)
for _trapezoid in (getattr(np, "trapezoid", None), getattr(np, "trapz", None)):
    if _trapezoid is not None:                         # trapezoid: 2.0+; trapz: before 2.4
        defvjp(_trapezoid, "y, x=None, dx=1.0, axis=-1",
               "trapezoid_vjp(g, y, x, dx, axis, 0)", "trapezoid_vjp(g, y, x, dx, axis, 1)",
               "trapezoid_vjp(g, y, x, dx, axis, 2)", None, numeric=True,
               complex_ok=True, jvp=LINEAR)
rrule(np.gradient, jvp=gradient_jvp)(gradient_rule)     # varargs spacings: a custom rule
