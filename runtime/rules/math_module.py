"""The `math` module: every function differentiable on floats, the rest with a reason.

Templates use `math` itself (the arguments are Python floats); `digamma`, which `math`
lacks, is a short series below.
"""
import math
import sys
from functools import partial

import numpy as np

from .. import registry
from ..registry import LINEAR, ZERO, nondiff, template_helper

# A function here takes numbers and returns a float (trait scalar_args, which this
# `defvjp` declares with each rule) unless its rule says otherwise.
defvjp = partial(registry.defvjp, scalar_args=True)

defvjp(math.sin, "x", "g * math.cos(x)")
defvjp(math.cos, "x", "-g * math.sin(x)")
defvjp(math.tan, "x", "g / math.cos(x) ** 2")
defvjp(math.asin, "x", "g / math.sqrt(1 - x * x)")
defvjp(math.acos, "x", "-g / math.sqrt(1 - x * x)")
defvjp(math.atan, "x", "g / (1 + x * x)")
defvjp(math.atan2, "y, x", "g * x / (x * x + y * y)", "-g * y / (x * x + y * y)")
defvjp(math.sinh, "x", "g * math.cosh(x)")
defvjp(math.cosh, "x", "g * math.sinh(x)")
defvjp(math.tanh, "x", "g * (1 - ans ** 2)")
defvjp(math.asinh, "x", "g / math.sqrt(x * x + 1)")
defvjp(math.acosh, "x", "g / math.sqrt(x * x - 1)")
defvjp(math.atanh, "x", "g / (1 - x * x)")
defvjp(math.hypot, "x, y", "g * x / ans", "g * y / ans")      # two coordinates
defvjp(math.degrees, "x", "g * (180 / math.pi)")
defvjp(math.radians, "x", "g * (math.pi / 180)")

defvjp(math.exp, "x", "g * ans")
defvjp(math.expm1, "x", "g * (ans + 1)")
defvjp(math.log, "x, base=2.718281828459045", "g / (x * math.log(base))",
       "-g * ans / (base * math.log(base))")
defvjp(math.log1p, "x", "g / (1 + x)")
defvjp(math.log2, "x", "g / (x * math.log(2))")
defvjp(math.log10, "x", "g / (x * math.log(10))")
defvjp(math.sqrt, "x", "g / (2 * ans)")
defvjp(math.pow, "x, y", "g * y * x ** (y - 1)", "g * ans * math.log(x) if x > 0 else 0.0")
if hasattr(math, "exp2"):                                       # Python 3.11+
    defvjp(math.exp2, "x", "g * ans * math.log(2)")
    defvjp(math.cbrt, "x", "g / (3 * ans * ans)")
if hasattr(math, "sumprod"):                                    # Python 3.12+
    defvjp(math.sumprod, "p, q", "[g * q[k] for k in range(len(p))]",
           "[g * p[k] for k in range(len(p))]", scalar_args=False)     # sequences
if hasattr(math, "fma"):                                        # Python 3.13+
    defvjp(math.fma, "x, y, z", "g * y", "g * x", "g")

defvjp(math.erf, "x", "g * 2 / math.sqrt(math.pi) * math.exp(-x * x)")
defvjp(math.erfc, "x", "-g * 2 / math.sqrt(math.pi) * math.exp(-x * x)")
defvjp(math.gamma, "x", "g * ans * digamma(x)")
defvjp(math.lgamma, "x", "g * digamma(x)")

defvjp(math.fabs, "x", "g * math.copysign(1.0, x)")
defvjp(math.copysign, "x, y", "g * math.copysign(1.0, x) * math.copysign(1.0, y)", None)
# x - n * y with n = trunc(x / y) (fmod) or the nearest integer (remainder): n is
# constant almost everywhere, and (x - ans) / y recovers it exactly as NumPy computed it
defvjp(math.fmod, "x, y", "g", "-g * (x - ans) / y")
defvjp(math.remainder, "x, y", "g", "-g * (x - ans) / y")
defvjp(math.ldexp, "x, i", "g * 2.0 ** i", None)

# sequences in; a float out, but math.prod's is the factors' product (an array for arrays)
defvjp(math.fsum, "seq", "sum_entries_vjp(g, seq)", scalar_args=False, scalar_result=True, jvp=LINEAR)
defvjp(math.prod, "iterable, *, start=1", "math_prod_vjp(g, iterable, start)",
       "g * math.prod(iterable)", scalar_args=False, int_result=True, complex_ok=True,
       jvp=("sum(s * t for s, t in zip(math_prod_vjp(1.0, iterable, start), t_iterable))",
            "t_start * math.prod(iterable)"))
defvjp(math.dist, "p, q", "[g * (p[k] - q[k]) / ans for k in range(len(p))]",
       "[g * (q[k] - p[k]) / ans for k in range(len(p))]", scalar_args=False,
       scalar_result=True,
       jvp=("sum((p[k] - q[k]) * t_p[k] for k in range(len(p))) / ans",
            "sum((q[k] - p[k]) * t_q[k] for k in range(len(p))) / ans"))

# int_result: the value may be an int, so `xs * math.floor(t)` may repeat a list
nondiff(math.floor, math.ceil, math.trunc, why=ZERO, int_result=True)
nondiff(math.isnan, math.isinf, math.isfinite, math.isclose, math.ulp, why=ZERO)
nondiff(math.factorial, math.comb, math.perm, math.gcd, math.isqrt, why=ZERO,  # integers
        int_result=True)
if hasattr(math, "lcm"):
    nondiff(math.lcm, why=ZERO, int_result=True)
# Tuple outputs: frexp's mantissa x / 2 ** e has slope 2 ** -e (e steps where |x| crosses
# a power of two), modf's fraction slope 1; the exponent and the integral part are steps.
registry.defvjp(math.frexp, "x", "math_parts_vjp(g, 2.0 ** -ans[1])", numeric=True,
                jvp="(t_x * 2.0 ** -ans[1], None)")
registry.defvjp(math.modf, "x", "math_parts_vjp(g, 1.0)", numeric=True, jvp="(t_x, None)")
# nextafter(x, y) is x moved one representable step towards y: slope 1 in x, while y
# only picks the direction (piecewise constant); steps= (Python 3.12+) is an integer
defvjp(math.nextafter, "x, y, *, steps=None" if sys.version_info >= (3, 12) else "x, y",
       "g", None)


@template_helper
def digamma(x):
    """psi(x) = d lgamma / dx: recurrence up to x >= 10, then the asymptotic series
    (error below 1e-13); reflection for x < 0.5."""
    if x < 0.5:
        return digamma(1 - x) - math.pi / math.tan(math.pi * x)
    shift = 0.0
    while x < 10:
        shift -= 1 / x
        x += 1
    inv2 = 1 / (x * x)
    series = inv2 * (1 / 12 - inv2 * (1 / 120 - inv2 * (1 / 252 - inv2 * (1 / 240 - inv2 / 132))))
    return shift + math.log(x) - 0.5 / x - series


@template_helper
def trigamma(x):
    """psi'(x), digamma's slope: recurrence up to x >= 10, then the asymptotic series
    (error below 1e-13); reflection psi'(x) = pi^2 / sin^2(pi x) - psi'(1 - x) for x < 0.5."""
    if x < 0.5:
        return (math.pi / math.sin(math.pi * x)) ** 2 - trigamma(1 - x)
    shift = 0.0
    while x < 10:
        shift += 1 / (x * x)
        x += 1
    inv2 = 1 / (x * x)
    series = inv2 * (1 / 6 - inv2 * (1 / 30 - inv2 * (1 / 42 - inv2 * (1 / 30 - inv2 * 5 / 66))))
    return shift + (1 + 0.5 / x + series) / x


# digamma inside lgamma's and gamma's tangent terms: its slope trigamma (session 38,
# secorder; trigamma itself is third order, tests/rules/second_order_missing.txt)
defvjp(digamma, "x", "g * trigamma(x)", jvp="t_x * trigamma(x)")


@template_helper
def math_prod_vjp(g, iterable, start):
    """Cotangents of math.prod's factors: g times the product of the others (zeros
    included, so no division). An array's as one array of its shape: a list would meet
    the array's other rules with list arithmetic (`g * 2` repeats it)."""
    values = list(iterable)
    out = []
    for k in range(len(values)):
        out.append(g * math.prod(values[:k] + values[k + 1:], start=start))
    if isinstance(iterable, np.ndarray):         # (written so reverse mode reads it: hvp)
        return np.array(out) if out else np.zeros(iterable.shape)
    return out


@template_helper(pure=True)
def math_parts_vjp(g, slope):
    """Cotangent of x of math.frexp / math.modf: the first part's cotangent times its
    slope; the second part (an integer exponent, an integral part) carries none."""
    first = g[0] if isinstance(g, (tuple, list)) else g
    return 0.0 if first is None else first * slope
