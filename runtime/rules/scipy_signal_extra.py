"""scipy.signal, continued: convolve2d, correlate2d, oaconvolve, lfilter, sosfilt and
detrend (registered only when SciPy imports). Real inputs.

convolve2d and correlate2d with boundary='fill' and fillvalue=0 are convolve and
correlate of 2-D arrays (other boundaries are refused when the rule runs); oaconvolve
with axes=None is convolve. lfilter solves sum_k a_k y[n-k] = sum_k b_k x[n-k] along
`axis`: with w = A^-T g (g filtered by 1/A backwards in time), x's cotangent is g
filtered by B/A backwards in time, b_j's is sum_n w[n] x[n-j] and a_j's
-sum_n w[n] y[n-j]. sosfilt (a cascade of such sections) is differentiated in x the
same way; its sections are not differentiated (refused). zi= (initial conditions) is
refused when the rule runs. detrend removes a least-squares fit (an orthogonal
projection), so its cotangent is detrend of g.
"""
import numpy as np
import scipy.signal as ss

from ..complex_safety import RuleRefused
from ..registry import LINEAR, NONE, defvjp, template_helper
from .scipy_signal import signal_convolve_vjp
from .shape_helpers import cot_dtype


@template_helper(pure=True)
def fill_boundary_checked(boundary, fillvalue):
    """convolve2d's method for signal_convolve_vjp, when its rule covers the boundary."""
    if boundary not in ("fill", "pad") or fillvalue != 0:
        raise RuleRefused("the convolve2d/correlate2d rules take boundary='fill' "
                                  "with fillvalue=0 only")
    return "direct"


@template_helper(pure=True)
def oa_axes_checked(axes):
    if axes is not None:
        raise RuleRefused("scipy.signal.oaconvolve has a rule for axes=None only")
    return "fft"


def _backwards(filt, *coefficients, signal):
    """filt(*coefficients, signal) run backwards in time along the last axis."""
    return filt(*coefficients, np.array(signal[..., ::-1]), axis=-1)[..., ::-1]   # (writable)


def _zi_checked(zi):
    if zi is not None:
        raise RuleRefused("the lfilter/sosfilt rules take zi=None only")


@template_helper(pure=True)
def lfilter_vjp(g, ans, b, a, x, axis, zi, part):
    """Cotangent of b (part 0), a (1) or x (2) of scipy.signal.lfilter."""
    _zi_checked(zi)
    g = np.moveaxis(np.asarray(g), axis, -1)
    if part == 2:
        cot = _backwards(ss.lfilter, b, a, signal=g)
        return np.moveaxis(cot, -1, axis).astype(cot_dtype(g, x), copy=False)
    w = _backwards(ss.lfilter, [1.0], a, signal=g)
    source = np.moveaxis(np.asarray(x if part == 0 else ans), axis, -1)
    coefficients = (b, a)[part]
    n = source.shape[-1]
    cot = np.array([np.sum(w[..., j:] * source[..., :n - j]) if j < n else 0.0
                    for j in range(np.size(coefficients))])
    cot = -cot if part == 1 else cot
    return cot.reshape(np.shape(coefficients)).astype(cot_dtype(g, coefficients), copy=False)


@template_helper(pure=True)
def sosfilt_vjp(slopes_g, sos, x, axis, zi):
    """Cotangent of x of scipy.signal.sosfilt: g filtered backwards in time."""
    _zi_checked(zi)
    g = np.moveaxis(np.asarray(slopes_g), axis, -1)
    cot = _backwards(ss.sosfilt, np.array(sos), signal=g)      # (SciPy needs a writable sos)
    return np.moveaxis(cot, -1, axis).astype(cot_dtype(g, x), copy=False)


_2D = "in1, in2, mode='full', boundary='fill', fillvalue=0"
defvjp(ss.convolve2d, _2D, "signal_convolve_vjp(g, in1, in2, mode, 0, "
       "fill_boundary_checked(boundary, fillvalue))", "signal_convolve_vjp(g, in1, in2, mode, 1, "
       "fill_boundary_checked(boundary, fillvalue))", None, None, None,
       jvp=("filled_2d('convolve2d', t_in1, in2, mode, boundary, fillvalue)",
            "filled_2d('convolve2d', in1, t_in2, mode, boundary, fillvalue)"))
defvjp(ss.correlate2d, _2D, "correlate2d_vjp(g, in1, in2, mode, boundary, fillvalue, 0)",
       "correlate2d_vjp(g, in1, in2, mode, boundary, fillvalue, 1)", None, None, None,
       jvp=("filled_2d('correlate2d', t_in1, in2, mode, boundary, fillvalue)",
            "filled_2d('correlate2d', in1, t_in2, mode, boundary, fillvalue)"))


@template_helper(pure=True)
def correlate2d_vjp(g, in1, in2, mode, boundary, fillvalue, operand):
    """correlate2d is convolve2d with in2 flipped, except that its 'same' window starts at
    n2 // 2 of the full output on each axis (convolve's at (n2 - 1) // 2)."""
    method = fill_boundary_checked(boundary, fillvalue)
    flipped = np.flip(np.asarray(in2))
    if mode == "same":
        full = np.zeros(tuple(n1 + n2 - 1 for n1, n2 in zip(np.shape(in1), np.shape(in2))),
                        dtype=np.asarray(g).dtype)
        full[tuple(slice(n2 // 2, n2 // 2 + n) for n2, n in zip(np.shape(in2), np.shape(g)))] = g
        g, mode = full, "full"
    cot = signal_convolve_vjp(g, in1, flipped, mode, operand, method)
    return np.flip(cot) if operand else cot
defvjp(ss.oaconvolve, "in1, in2, mode='full', axes=None",
       "signal_convolve_vjp(g, in1, in2, mode, 0, oa_axes_checked(axes))",
       "signal_convolve_vjp(g, in1, in2, mode, 1, oa_axes_checked(axes))", None, None, jvp=LINEAR)
defvjp(ss.lfilter, "b, a, x, axis=-1, zi=None", "lfilter_vjp(g, ans, b, a, x, axis, zi, 0)",
       "lfilter_vjp(g, ans, b, a, x, axis, zi, 1)", "lfilter_vjp(g, ans, b, a, x, axis, zi, 2)",
       None, NONE, jvp=tuple(f"lfilter_jvp(t_{p}, ans, b, a, x, axis, zi, {k})"
                             for k, p in enumerate(("b", "a", "x"))))
defvjp(ss.sosfilt, "sos, x, axis=-1, zi=None", NONE, "sosfilt_vjp(g, sos, x, axis, zi)", None,
       NONE, jvp=(None, "filtered_sos(sos, t_x, axis, zi)"))
defvjp(ss.detrend, "data, axis=-1, type='linear', bp=0, overwrite_data=False",
       "detrend_vjp(g, data, axis, type, bp)", None, None, None, None, jvp=LINEAR)


@template_helper(pure=True)
def detrend_vjp(g, data, axis, type, bp):
    """Cotangent of data of scipy.signal.detrend: the same projection applied to g."""
    cot = ss.detrend(np.asarray(g), axis=axis, type=type, bp=bp)
    return cot.astype(cot_dtype(g, data), copy=False)


@template_helper(pure=True)
def filled_2d(name, in1, in2, mode, boundary, fillvalue):
    """scipy.signal.<name>(in1, in2, mode) with the boundaries the rules cover: linear in
    each of in1 and in2 there (a nonzero fillvalue would be affine)."""
    fill_boundary_checked(boundary, fillvalue)
    return getattr(ss, name)(in1, in2, mode)


@template_helper(pure=True)
def lfilter_jvp(t, ans, b, a, x, axis, zi, part):
    """Tangent of lfilter from b (part 0) or x (2), in which it is linear, or from a (1):
    sum_k a_k y[n-k] = sum_k b_k x[n-k] gives a * dy = -da * y, dy = -lfilter(da, a, y)."""
    _zi_checked(zi)
    if part == 1:
        return -ss.lfilter(t, a, ans, axis=axis)
    return ss.lfilter(t, a, x, axis=axis) if part == 0 else ss.lfilter(b, a, t, axis=axis)


@template_helper(pure=True)
def filtered_sos(sos, x, axis, zi):
    """sosfilt(sos, x) with zi=None, where it is linear in x."""
    _zi_checked(zi)
    return ss.sosfilt(np.array(sos), np.array(x), axis=axis)    # (SciPy needs writable arrays)


# Second order (session 40, secorder3): sosfilt's tangent filtered_sos(sos, t, ...) is
# linear in t, its transpose sosfilt's cotangent sosfilt_vjp (g filtered backwards), itself
# linear in g with filtered_sos its transpose; sos has no rule (NONE, as sosfilt's)
defvjp(filtered_sos, "sos, x, axis, zi", NONE, "sosfilt_vjp(g, sos, x, axis, zi)", None, NONE,
       jvp=(None, LINEAR, None, None))
defvjp(sosfilt_vjp, "slopes_g, sos, x, axis, zi", "filtered_sos(sos, g, axis, zi)", NONE, None,
       None, NONE, jvp=(LINEAR, None, None, None, None))
