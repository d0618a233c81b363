"""Second order through the angle's JVP terms (session 39, secorder2): reverse rules for
angle_jvp (cmath.phase's tangent) and angle_vjp (np.angle's DIAGONAL term), so hvp,
hessian and grad of grad take cmath.phase, and np.angle of real values.

With c = 180 / pi for degrees (else 1) and the cotangent convention of docs/complex.md
(a real loss L moves by Re(H dw) for a complex w with cotangent H), for z != 0:

    angle_jvp(t, z) = c Im(t / z):        cot t = -i G c / z,   cot z = i G c t / z^2
    angle_vjp(g, z) = -i c Re(g) / z:     cot g = Re(H (-i c / z)),   cot z = i c Re(g) H / z^2

(the second is holomorphic in z), each 0 at z = 0, and a real argument's cotangent the
real part (a real z has a constant angle: angle_vjp is 0 there, and so are its own).
"""
import math

import numpy as np

from ..registry import LINEAR, defvjp, template_helper
from .complex_helpers import _is_complex, angle_jvp, angle_vjp


def _over(z, power):
    """1 / z ** power, 0 where z is 0."""
    z = np.asarray(z)
    zero = z == 0
    return np.where(zero, 0, 1 / np.where(zero, 1, z) ** power)


def _zeros(x):
    """Zeros shaped like x, in its real float dtype (float32 stays float32)."""
    return np.zeros(np.shape(x), np.result_type(np.real(np.asarray(x)).dtype, np.float16))


def _like(cot, x):
    """The cotangent as x takes it: the real part for a real x."""
    return cot if _is_complex(x) else np.real(cot)


@template_helper(pure=True)
def angle_second(g, first, z, deg, kind, part):
    """Cotangent of part 0 (the first argument) or 1 (z) of angle_jvp (kind 'jvp', first
    the tangent t) or angle_vjp (kind 'vjp', first the slopes g) (module docstring)."""
    c = 180 / math.pi if deg else 1
    if kind == "vjp" and not _is_complex(z):
        return _zeros((first, z)[part])
    if kind == "jvp":
        cot = -1j * g * c * _over(z, 1) if part == 0 else 1j * g * c * first * _over(z, 2)
    else:
        cot = np.real(g * -1j * c * _over(z, 1)) if part == 0 else \
            1j * c * np.real(first) * g * _over(z, 2)
    return _like(cot, (first, z)[part])


@template_helper(pure=True)
def angle_tangent_z(t_z, first, z, deg, kind):
    """Tangent in z of angle_jvp (kind 'jvp': c Im(-t t_z / z^2)) or angle_vjp ('vjp':
    i c Re(g) t_z / z^2, 0 for a real z), 0 at z = 0."""
    c = 180 / math.pi if deg else 1
    if kind == "jvp":
        return c * np.imag(-first * t_z * _over(z, 2))
    if not _is_complex(z):
        return np.zeros(np.broadcast_shapes(np.shape(first), np.shape(z)))
    return 1j * c * np.real(first) * t_z * _over(z, 2)


defvjp(angle_jvp, "t, z, deg=False", "angle_second(g, t, z, deg, 'jvp', 0)",
       "angle_second(g, t, z, deg, 'jvp', 1)", None, complex_ok=True, complex_jvp=True,
       jvp=(LINEAR, "angle_tangent_z(t_z, t, z, deg, 'jvp')"))
defvjp(angle_vjp, "slopes_g, z, deg=False", "angle_second(g, slopes_g, z, deg, 'vjp', 0)",
       "angle_second(g, slopes_g, z, deg, 'vjp', 1)", None, complex_ok=True,
       complex_jvp=True, jvp=(LINEAR, "angle_tangent_z(t_z, slopes_g, z, deg, 'vjp')"))
