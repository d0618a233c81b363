"""NumPy elementwise functions: one line of math per argument.

Binary ufuncs broadcast, so each cotangent is summed back to its argument's
shape with `unbroadcast`. Constants are Python numbers (math.log(2), not
np.log(2)) so that float32 stays float32 under NumPy 2's promotion rules.
Ties (maximum, fmax, clip at a bound) give the whole cotangent to one side;
fabs and sign-like kinks take sign(0) = 0. abs, real, imag, conj and angle, which
also take complex values, are in complex_parts.py. The derivative of a real
`x ** y` (np.power, the operator) in y is x ** y * log x: 0 where x == 0 (0 ** y
is constant for y > 0), NaN where x < 0, as JAX (a negative base has real powers
at integer y only, no derivative in y; differences give NaN), but 0 where that
element's cotangent or tangent is 0, so `np.where(x > 0, x ** y, 0)` stays finite;
grad, jvp and hvp agree (tests/noticed39/test_power_exponent.py).
"""
from functools import partial

import numpy as np

from .. import registry
from .elementwise_helpers import logaddexp_number

# Every function here is elementwise (its output has its arguments' broadcast shape):
# this `defvjp` declares that trait with each rule.
defvjp = partial(registry.defvjp, elementwise=True)

# Arithmetic
defvjp(np.negative, "x", "-g", complex_ok=True)
defvjp(np.positive, "x", "g", complex_ok=True)
defvjp(np.add, "x, y", "unbroadcast(g, x)", "unbroadcast(g, y)", complex_ok=True)
defvjp(np.subtract, "x, y", "unbroadcast(g, x)", "unbroadcast(-g, y)", complex_ok=True)
defvjp(np.multiply, "x, y", "unbroadcast(g * y, x)", "unbroadcast(g * x, y)", complex_ok=True)
defvjp(np.divide, "x, y", "unbroadcast(g / y, x)", "unbroadcast(-g * ans / y, y)",
       complex_ok=True)  # = true_divide
defvjp(np.power, "x, y", "unbroadcast(power_base_vjp(g, x, y), x)",
       "pow_exponent_vjp(g, ans, x, y)", complex_ok=True)
defvjp(np.float_power, "x, y",
       "cast_like(unbroadcast(power_base_vjp(g, x, y, np.float_power), x), x)",
       "cast_like(pow_exponent_vjp(g, ans, x, y), y)", complex_ok=True)
defvjp(np.reciprocal, "x", "-g * ans ** 2", complex_ok=True)
defvjp(np.square, "x", "g * 2 * x", complex_ok=True)
defvjp(np.sqrt, "x", "g / (2 * ans)", complex_ok=True)
defvjp(np.cbrt, "x", "g / (3 * ans ** 2)")
defvjp(np.remainder, "x, y", "unbroadcast(g, x)", "unbroadcast(-g * np.floor_divide(x, y), y)")
defvjp(np.fmod, "x, y", "unbroadcast(g, x)", "unbroadcast(-g * np.trunc(x / y), y)")

# Exponentials and logarithms
defvjp(np.exp, "x", "g * ans", complex_ok=True)
defvjp(np.exp2, "x", "g * ans * math.log(2)", complex_ok=True)
defvjp(np.expm1, "x", "g * (ans + 1)", complex_ok=True)
defvjp(np.log, "x", "g / x", complex_ok=True)
defvjp(np.log2, "x", "g / (x * math.log(2))", complex_ok=True)
defvjp(np.log10, "x", "g / (x * math.log(10))", complex_ok=True)
defvjp(np.log1p, "x", "g / (1 + x)", complex_ok=True)
defvjp(np.logaddexp, "x, y", "unbroadcast(g * np.exp(x - ans), x)",
       "unbroadcast(g * np.exp(y - ans), y)")
# np.logaddexp with a number literal, as whole-array ufuncs (session 32, logit)
defvjp(logaddexp_number, "x, y", "unbroadcast(g * np.exp(x - ans), x)",
       "unbroadcast(g * np.exp(y - ans), y)")
defvjp(np.logaddexp2, "x, y", "unbroadcast(g * np.exp2(x - ans), x)",
       "unbroadcast(g * np.exp2(y - ans), y)")

# Trigonometric and hyperbolic
defvjp(np.sin, "x", "g * np.cos(x)", complex_ok=True)
defvjp(np.cos, "x", "-g * np.sin(x)", complex_ok=True)
defvjp(np.tan, "x", "g / np.cos(x) ** 2", complex_ok=True)
defvjp(np.arcsin, "x", "g / np.sqrt(1 - x ** 2)", complex_ok=True)
defvjp(np.arccos, "x", "-g / np.sqrt(1 - x ** 2)", complex_ok=True)
defvjp(np.arctan, "x", "g / (1 + x ** 2)", complex_ok=True)
defvjp(np.arctan2, "x1, x2", "unbroadcast(g * x2 / (x1 ** 2 + x2 ** 2), x1)",
       "unbroadcast(-g * x1 / (x1 ** 2 + x2 ** 2), x2)")
defvjp(np.hypot, "x1, x2", "unbroadcast(g * x1 / ans, x1)", "unbroadcast(g * x2 / ans, x2)")
defvjp(np.sinh, "x", "g * np.cosh(x)", complex_ok=True)
defvjp(np.cosh, "x", "g * np.sinh(x)", complex_ok=True)
defvjp(np.tanh, "x", "g * (1 - ans ** 2)", complex_ok=True)
defvjp(np.arcsinh, "x", "g / np.sqrt(x ** 2 + 1)", complex_ok=True)
defvjp(np.arccosh, "x", "g / np.sqrt(x ** 2 - 1)", complex_ok=True)
defvjp(np.arctanh, "x", "g / (1 - x ** 2)", complex_ok=True)
defvjp(np.deg2rad, "x", "g * (math.pi / 180)")
defvjp(np.radians, "x", "g * (math.pi / 180)")
defvjp(np.rad2deg, "x", "g * (180 / math.pi)")
defvjp(np.degrees, "x", "g * (180 / math.pi)")
defvjp(np.sinc, "x", "g * sinc_slope(x)", complex_ok=True)

# Piecewise: the derivative of the piece that was chosen
defvjp(np.fabs, "x", "g * np.sign(x)")
defvjp(np.maximum, "x, y", "unbroadcast(g * (x >= y), x)", "unbroadcast(g * (x < y), y)",
       complex_ok=True)
defvjp(np.minimum, "x, y", "unbroadcast(g * (x <= y), x)", "unbroadcast(g * (x > y), y)",
       complex_ok=True)
# fmax/fmin ignore a NaN argument: the other one wins
defvjp(np.fmax, "x, y", "unbroadcast(g * ((x >= y) | np.isnan(y)), x)",
       "unbroadcast(g * ((x < y) | np.isnan(x)), y)", complex_ok=True)
defvjp(np.fmin, "x, y", "unbroadcast(g * ((x <= y) | np.isnan(y)), x)",
       "unbroadcast(g * ((x > y) | np.isnan(x)), y)", complex_ok=True)
defvjp(np.clip, "a, a_min=None, a_max=None, out=None, *, min=None, max=None",
       "unbroadcast(g * clip_inside(a, a_min, a_max, min, max), a)",
       "unbroadcast(g * (a < a_min), a_min)", "unbroadcast(g * (a > a_max), a_max)",
       complex_ok=True)
defvjp(np.where, "condition, x=None, y=None", None,
       "unbroadcast(np.where(condition, g, 0), x)", "unbroadcast(np.where(condition, 0, g), y)",
       complex_ok=True)
defvjp(np.nan_to_num, "x, copy=True, nan=0.0, posinf=None, neginf=None", "g * np.isfinite(x)",
       complex_ok=True)
# heaviside(x1, x2) is x2 where x1 == 0, a step elsewhere
defvjp(np.heaviside, "x1, x2", None, "unbroadcast(g * (x1 == 0), x2)")
defvjp(np.copysign, "x1, x2", "unbroadcast(g * np.sign(x1) * np.sign(ans), x1)", None)
# x1 moved one representable step towards x2: slope 1 in x1; x2 only picks the direction
defvjp(np.nextafter, "x1, x2", "unbroadcast(g, x1)", None)

