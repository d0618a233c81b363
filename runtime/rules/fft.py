"""np.fft: the discrete Fourier transforms, their shifts and sample frequencies.

Each transform is linear; its cotangent is the transpose applied to g (helpers in
fft_helpers.py, derivations in docs/complex.md), with the same n/s, axis/axes and
norm. A real input gets the real part of its cotangent; a complex input (an
intermediate value: grad refuses complex arguments) gets the complex cotangent of
docs/complex.md. The lengths n and s, the axes and norm are not differentiated.
"""
from functools import partial

import numpy as np

from .. import registry
from ..registry import LINEAR

# linear maps, each rule its transpose (docs/complex.md): right for complex values; each
# transform's tangent is the transform of the tangent (R-linear, complex values too)
defvjp = partial(registry.defvjp, numeric=True, complex_ok=True, jvp=LINEAR, complex_jvp=True)

_ONE_AXIS = "a, n=None, axis=-1, norm=None, out=None"
_N_AXES = "a, s=None, axes=None, norm=None, out=None"
_TWO_AXES = "a, s=None, axes=(-2, -1), norm=None, out=None"

defvjp(np.fft.fft, _ONE_AXIS, "fft_vjp(g, a, axis, norm)", None, None, None, None)
defvjp(np.fft.ifft, _ONE_AXIS, "fft_vjp(g, a, axis, norm, True)", None, None, None, None)
defvjp(np.fft.rfft, _ONE_AXIS, "rfft_vjp(g, a, n, axis, norm)", None, None, None, None)
defvjp(np.fft.irfft, _ONE_AXIS, "irfft_vjp(g, a, ans, axis, norm)", None, None, None, None)
defvjp(np.fft.hfft, _ONE_AXIS, "hfft_vjp(g, a, ans, axis, norm)", None, None, None, None)
defvjp(np.fft.ihfft, _ONE_AXIS, "ihfft_vjp(g, a, n, axis, norm)", None, None, None, None)

for _signature, _forward, _inverse, _real, _back in (
        (_N_AXES, np.fft.fftn, np.fft.ifftn, np.fft.rfftn, np.fft.irfftn),
        (_TWO_AXES, np.fft.fft2, np.fft.ifft2, np.fft.rfft2, np.fft.irfft2)):
    defvjp(_forward, _signature, "fftn_vjp(g, a, s, axes, norm)", None, None, None, None)
    defvjp(_inverse, _signature, "fftn_vjp(g, a, s, axes, norm, True)", None, None, None, None)
    defvjp(_real, _signature, "rfftn_vjp(g, a, s, axes, norm)", None, None, None, None)
    defvjp(_back, _signature, "irfftn_vjp(g, a, ans, s, axes, norm)", None, None, None, None)

# Shifts are permutations: each one's transpose is the other
defvjp(np.fft.fftshift, "x, axes=None", "np.fft.ifftshift(g, axes)", None, jvp=LINEAR)
defvjp(np.fft.ifftshift, "x, axes=None", "np.fft.fftshift(g, axes)", None, jvp=LINEAR)

# Sample frequencies k / (n d): only the spacing d moves them
defvjp(np.fft.fftfreq, "n, d=1.0, device=None", None, "-np.sum(g * ans) / d", None,
       jvp=(None, "-ans * t_d / d"))
defvjp(np.fft.rfftfreq, "n, d=1.0, device=None", None, "-np.sum(g * ans) / d", None,
       jvp=(None, "-ans * t_d / d"))
