"""Template helpers for runtime/rules/complex_parts.py: the parts of a complex number.

Under the convention of docs/complex.md (the cotangent of z = a + ib is
dL/da - i dL/db), a function with a real output takes the real part of g first (a
real value's cotangent is real; an imaginary part there could only be an artefact),
and a real input gets the real part of what reaches it.
"""
import math

import numpy as np

from ..registry import template_helper


def _is_complex(x):
    dtype = getattr(x, "dtype", None)
    if dtype is None:                     # a number, or a list of them
        return isinstance(x, complex) or isinstance(x, (list, tuple)) and np.iscomplexobj(x)
    return dtype.kind == "c"


@template_helper(pure=True)
def abs_vjp(slopes_g, x):
    """Cotangent of |x|: g * sign(x) for real x (0 at 0); g * conj(x) / |x| for
    complex x, 0 at 0."""
    if not _is_complex(x):
        return slopes_g * np.sign(x)
    size = np.abs(x)
    safe = np.where(size == 0, 1, size)
    return np.real(slopes_g) * np.where(size == 0, 0, np.conj(x) / safe)


@template_helper(shape_only=(1,), pure=True)
def real_vjp(g, x):
    """Cotangent of real(x): g's real part, in x's complex dtype when x is complex (so
    the complex value's cotangent stays complex where later ones add to it in place)."""
    g = np.real(g)
    return np.asarray(g, dtype=x.dtype) if _is_complex(x) and hasattr(x, "dtype") else g


@template_helper(shape_only=(1,), pure=True)
def imag_vjp(g, x):
    """Cotangent of imag(x): -i g (d imag / db = 1 in the convention), and zero for
    real x, whose imaginary part is the constant 0."""
    if not _is_complex(x):
        return np.zeros_like(np.real(g))
    return np.real(g) * -1j


@template_helper(pure=True)
def angle_vjp(slopes_g, z, deg=False):
    """Cotangent of angle(z) = atan2(b, a): -i g conj(z) / |z|^2 (= -i g / z), 0 at
    z = 0; a real z has a constant angle (0 or pi) away from 0, so its slope is 0."""
    g = np.real(slopes_g) * (180 / math.pi if deg else 1)
    if not _is_complex(z):
        return g * 0
    square = np.real(z * np.conj(z))
    safe = np.where(square == 0, 1, square)
    return g * np.where(square == 0, 0, -1j * np.conj(z) / safe)


@template_helper(pure=True)
def sign_vjp(g, x, ans):
    """Cotangent of sign(x): zero for real x (piecewise constant); for complex x,
    sign = z / |z| = e^(i angle): i Im(g s) conj(z) / |z|^2, 0 at 0 (docs/complex.md)."""
    if not _is_complex(x):
        return np.zeros_like(np.real(g))
    square = np.real(x * np.conj(x))
    safe = np.where(square == 0, 1, square)
    return np.where(square == 0, 0, 1j * np.imag(g * ans) * np.conj(x) / safe)

@template_helper(pure=True)
def sign_jvp(t, x, ans):
    """Tangent of sign(x): zero for real x; for complex x, s = z / |z| moves by
    i s Im(conj(s) dz) / |z| (its modulus stays 1), 0 at 0 (docs/complex.md)."""
    if not _is_complex(x) and not _is_complex(t):
        return np.zeros(np.shape(ans))
    modulus = np.abs(x)
    safe = np.where(modulus == 0, 1, modulus)
    return np.where(modulus == 0, 0, 1j * ans * np.imag(np.conj(ans) * t) / safe)


@template_helper(pure=True)
def angle_jvp(t, z, deg=False):
    """Tangent of angle(z): Im(conj(z) dz) / |z|^2 (the transpose of angle_vjp), 0 at
    0 and for a real z with a real tangent."""
    square = np.real(z * np.conj(z))
    safe = np.where(square == 0, 1, square)
    out = np.where(square == 0, 0, np.imag(np.conj(z) * t) / safe)
    return out * (180 / math.pi if deg else 1)


@template_helper(pure=True)
def deviation(a, axis=None):
    """conj(a - mean(a)), the slope of np.var in a (halved): |d|^2 = d conj(d)."""
    d = a - np.mean(a, axis, keepdims=True)
    return np.conj(d) if d.dtype.kind == "c" else d


@template_helper(pure=True)
def vdot_vjp(g, a, b, operand):
    """Cotangent of np.vdot(a, b) = sum(conj(a) b): conj(g b) for a, g conj(a) for b;
    real for a real operand."""
    if operand == 0:
        ct = np.reshape(g * np.asarray(b), np.shape(a))
        return np.conj(ct) if _is_complex(a) else np.real(ct)
    ct = np.reshape(g * np.conj(a), np.shape(b))
    return ct if _is_complex(b) else np.real(ct)
