"""The parts of complex values: real, imag, conj, abs, angle and sign (elementwise);
building them (complex(), np.complex128) and the holomorphic cmath functions.

The cotangent convention is docs/complex.md's: for a real loss L and z = a + ib the
cotangent is dL/da - i dL/db, so a holomorphic function's rule is g * f'(z) (the
rules of elementwise.py and operators.py hold for complex values as written) and a
real input's cotangent is the real part of what reaches it. The parts are not
holomorphic; each is derived in docs/complex.md.
"""
import cmath
import math  # noqa: F401  (a default value in a signature below)
from functools import partial

import numpy as np

from .. import registry
from ..registry import DIAGONAL, LINEAR

# Every rule here is for complex values (docs/complex.md derives each): complex_ok
defvjp = partial(registry.defvjp, elementwise=True, complex_ok=True)
complex_defvjp = partial(registry.defvjp, complex_ok=True)

defvjp(np.real, "val", "real_vjp(g, val)", view=True, jvp=LINEAR, complex_jvp=True)
# (forward: the tangent of a complex value is complex, docs/forward.md; imag is R-linear,
# sign's derivative e^(i angle) i d(angle) is 0 for real x)
defvjp(np.imag, "val", "imag_vjp(g, val)", view=True, jvp=LINEAR, complex_jvp=True)
defvjp(np.conjugate, "x", "np.conj(g)", jvp=LINEAR, complex_jvp=True)   # = np.conj
defvjp(np.abs, "x", "abs_vjp(g, x)")                      # = np.absolute
defvjp(np.angle, "z, deg=False", "angle_vjp(g, z, deg)", None)
defvjp(np.sign, "x", "sign_vjp(g, x, ans)", jvp="sign_jvp(t_x, x, ans)",
       complex_jvp=True)   # piecewise constant for real x

# Building complex values: z = real + i imag moves by Re(g) d real - Im(g) d imag
# (complex(z) of a complex z is z itself: its cotangent keeps the imaginary part, and
# complex(a, z) is a + i z: g * 1j for a complex z)
complex_defvjp(complex, "real=0, imag=0", "g if np.iscomplexobj(real) else np.real(g)",
                "g * 1j if np.iscomplexobj(imag) else -np.imag(g)",
                jvp=("t_real + 0j", "1j * t_imag"), complex_jvp=True)
for _dtype in (np.complex128, np.complex64):
    complex_defvjp(_dtype, "x=0", "g if np.iscomplexobj(x) else np.real(g)", jvp=LINEAR,
                   complex_jvp=True)

# cmath: holomorphic, so g * f'(z) as for real values; phase is np.angle, rect r e^(i phi)
# (forward: holomorphic, J t = f'(z) t, the VJP template at g = t: DIAGONAL; phase and rect
# map between real and complex values, so theirs are written out)
cmath_defvjp = partial(complex_defvjp, jvp=DIAGONAL, complex_jvp=True)
cmath_defvjp(cmath.exp, "z", "g * ans")
cmath_defvjp(cmath.log, "z, base=math.e", "g / (z * np.log(base))",
             "-g * ans / (base * np.log(base))")
cmath_defvjp(cmath.sqrt, "z", "g / (2 * ans)")
cmath_defvjp(cmath.sin, "z", "g * np.cos(z)")
cmath_defvjp(cmath.cos, "z", "-g * np.sin(z)")
cmath_defvjp(cmath.tan, "z", "g / np.cos(z) ** 2")
cmath_defvjp(cmath.sinh, "z", "g * np.cosh(z)")
cmath_defvjp(cmath.cosh, "z", "g * np.sinh(z)")
cmath_defvjp(cmath.tanh, "z", "g * (1 - ans ** 2)")
complex_defvjp(cmath.phase, "z", "angle_vjp(g, z)", jvp="angle_jvp(t_z, z)", complex_jvp=True)
complex_defvjp(cmath.rect, "r, phi",
               "np.real(g * ans / r) if r != 0 else np.real(g * np.exp(1j * phi))",
               "np.real(g * 1j * ans)",
               jvp=("t_r * np.exp(1j * phi)", "1j * ans * t_phi"), complex_jvp=True)
