"""scipy.signal: convolve, correlate and fftconvolve, in both inputs, every mode
(registered only when SciPy imports). Real inputs of equal ndim.

With y = full(a * b) (the full convolution) and the mode's output a window of it
(`same`: centred on a's size; `valid`: the part where one input covers the other),
g is placed back into a zero array of the full size, and then
    g_a = convolve(g_full, flip(b), 'valid')    g_b = convolve(g_full, flip(a), 'valid').
correlate(a, b, mode) is convolve(a, flip(b), mode), so its b cotangent is flipped back.
fftconvolve's `axes` must be None (convolution along every axis): others are refused.
"""
import numpy as np
import scipy.signal as ss

from ..registry import LINEAR, defvjp, template_helper


def _window_start(mode, na, nb):
    """Where the mode's output starts inside the full convolution, on one axis ('same'
    or 'valid': a 'full' cotangent is used as it is)."""
    if mode == "same":
        return (nb - 1) // 2
    return min(na, nb) - 1                        # valid


def _full_cotangent(g, mode, a_shape, b_shape):
    """g placed at its window inside zeros of the full convolution's shape."""
    g = np.asarray(g)
    full = tuple(na + nb - 1 for na, nb in zip(a_shape, b_shape))
    if mode == "full":
        return g
    out = np.zeros(full, dtype=g.dtype)
    window = tuple(slice(_window_start(mode, na, nb), _window_start(mode, na, nb) + n)
                   for na, nb, n in zip(a_shape, b_shape, g.shape))
    out[window] = g
    return out


@template_helper
def signal_convolve_vjp(g, a, b, mode, operand, via="direct"):
    """Cotangent of in1 (operand 0) or in2 (1) in convolve(in1, in2, mode) (an unknown
    mode never gets here: the forward call refuses it)."""
    a, b = np.asarray(a), np.asarray(b)
    g_full = _full_cotangent(g, mode, a.shape, b.shape)
    other = (b, a)[operand]                      # operand 0: in1, 1: in2
    if via == "fft":
        return ss.fftconvolve(g_full, np.flip(other), mode="valid")
    return ss.convolve(g_full, np.flip(other), mode="valid")


@template_helper
def fft_axes_checked(axes):
    if axes is not None:
        raise TypeError("scipy.signal.fftconvolve has a rule for axes=None only")
    return "fft"


defvjp(ss.convolve, "in1, in2, mode='full', method='auto'",
       "signal_convolve_vjp(g, in1, in2, mode, 0)", "signal_convolve_vjp(g, in1, in2, mode, 1)",
       None, None,
       complex_ok=True, jvp=LINEAR)
defvjp(ss.correlate, "in1, in2, mode='full', method='auto'",
       "signal_convolve_vjp(g, in1, np.flip(in2), mode, 0)",
       "np.flip(signal_convolve_vjp(g, in1, np.flip(in2), mode, 1))", None, None, jvp=LINEAR)
defvjp(ss.fftconvolve, "in1, in2, mode='full', axes=None",
       "signal_convolve_vjp(g, in1, in2, mode, 0, fft_axes_checked(axes))",
       "signal_convolve_vjp(g, in1, in2, mode, 1, fft_axes_checked(axes))", None, None,
       complex_ok=True, jvp=LINEAR)
