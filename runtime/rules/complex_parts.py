"""The parts of complex values: real, imag, conj, abs and angle (elementwise).

The cotangent convention is docs/complex.md's: for a real loss L and z = a + ib the
cotangent is dL/da - i dL/db, so a holomorphic function's rule is g * f'(z) (the
rules of elementwise.py and operators.py hold for complex values as written) and a
real input's cotangent is the real part of what reaches it. These are not
holomorphic; each is derived in docs/complex.md.
"""
from functools import partial

import numpy as np

from .. import registry

defvjp = partial(registry.defvjp, elementwise=True)

defvjp(np.real, "val", "real_vjp(g, val)", view=True)
defvjp(np.imag, "val", "imag_vjp(g, val)", view=True)
defvjp(np.conjugate, "x", "np.conj(g)")                   # = np.conj
defvjp(np.abs, "x", "abs_vjp(g, x)")                      # = np.absolute
defvjp(np.angle, "z, deg=False", "angle_vjp(g, z, deg)", None)
defvjp(np.sign, "x", "sign_vjp(g, x, ans)")      # piecewise constant for real x
