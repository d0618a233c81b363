"""Template helpers for runtime/rules/fft.py: the transposes of the discrete Fourier
transforms (docs/complex.md derives them).

Every transform is linear, so its cotangent is its transpose applied to `g` (the
cotangent convention of docs/complex.md needs the transpose, not the adjoint). The
DFT matrix is symmetric, so fft's transpose is fft itself, with the same `norm`; `n=`
and `s=` pad or truncate the input, whose transpose truncates or pads the cotangent
back (`_fit`). A real input takes the real part of its cotangent.
"""
import numpy as np

from ..registry import template_helper

# Scaling the forward transform by 1, 1/sqrt(n) or 1/n; `_DUAL[norm]` puts the same
# factor on the inverse transform.
_DUAL = {None: "forward", "backward": "forward", "ortho": "ortho", "forward": "backward"}


def _is_complex(x):
    dtype = getattr(x, "dtype", None)
    if dtype is None:                     # a number, or a list of them
        return isinstance(x, complex) or isinstance(x, (list, tuple)) and np.iscomplexobj(x)
    return dtype.kind == "c"


def _real_if(ct, x):
    """The real part of `ct` when `x` is real: its imaginary part moves nothing."""
    return ct if _is_complex(x) else np.real(ct)


def _fit(a, length, axis):
    """`a` truncated or zero-padded at the end of `axis` to `length` entries."""
    have = a.shape[axis]
    if have == length:
        return a
    if have > length:
        return a[(slice(None),) * (axis % a.ndim) + (slice(0, length),)]
    pad = [(0, 0)] * a.ndim
    pad[axis] = (0, length - have)
    return np.pad(a, pad)


def _fit_axes(a, shape, axes):
    for axis in axes:
        a = _fit(a, shape[axis], axis)
    return a


def _along(values, axis, ndim):
    """A 1-D array shaped to broadcast along `axis` of an ndim-dimensional array."""
    return values.reshape((-1,) + (1,) * (ndim - 1 - axis % ndim))


def _half_weights(n, m, dtype):
    """How often rfft's entry k (of m = n // 2 + 1) is counted in the full spectrum:
    1 for the mean (and, n even, the Nyquist entry), 2 for the others."""
    c = np.full(m, 2, dtype=dtype)
    c[0] = 1
    if n % 2 == 0:
        c[-1] = 1
    return c


def _real_dtype(a):
    return np.finfo(np.result_type(a, np.float16)).dtype


def _nd_axes(ndim, s, axes):
    """np.fft's n-d axes, normalised: all of them, or the last len(s) when only s is given."""
    if axes is None:
        axes = range(ndim) if s is None else range(-len(s), 0)
    return [a % ndim for a in axes]


@template_helper(shape_only=(1,), pure=True)
def fft_vjp(g, x, axis, norm, inverse=False):
    """Cotangent of np.fft.fft or ifft (x, n, axis, norm): the same transform of g."""
    transform = np.fft.ifft if inverse else np.fft.fft
    ct = _fit(transform(g, axis=axis, norm=norm), np.shape(x)[axis], axis)
    return _real_if(ct, x)


@template_helper(shape_only=(1,), pure=True)
def fftn_vjp(g, x, s, axes, norm, inverse=False):
    """Cotangent of np.fft.fftn, ifftn, fft2, ifft2 (x, s, axes, norm)."""
    axes = _nd_axes(np.ndim(x), s, axes)
    transform = np.fft.ifftn if inverse else np.fft.fftn
    ct = _fit_axes(transform(g, axes=axes, norm=norm), np.shape(x), axes)
    return _real_if(ct, x)


def _rfft_transpose(h, n, axis, norm):
    """Re(F^T R^T h): the transpose of rfft (length n along `axis`) applied to h.

    R^T pads h with zeros to the full spectrum and F^T = F; the real part of that
    full-length fft is n * irfft(conj(h) / c), c counting how often irfft uses each
    entry (twice, but once for the mean and the Nyquist entry).
    """
    c = _half_weights(n, h.shape[axis], _real_dtype(h))
    return np.fft.irfft(np.conj(h) / _along(c, axis, h.ndim), n, axis=axis, norm=_DUAL[norm])


def _irfft_transpose(g, n, axis, norm):
    """The transpose of irfft (output length n along `axis`) applied to a real g:
    c * conj(rfft(g)), with the inverse transform's scaling."""
    spectrum = np.conj(np.fft.rfft(np.real(g), axis=axis, norm=_DUAL[norm]))
    c = _half_weights(n, spectrum.shape[axis], _real_dtype(spectrum))
    return spectrum * _along(c, axis, spectrum.ndim)


@template_helper(shape_only=(1,), pure=True)
def rfft_vjp(g, x, n, axis, norm):
    """Cotangent of np.fft.rfft(x, n, axis, norm), real whatever x is (rfft reads
    only x's real part)."""
    n = np.shape(x)[axis] if n is None else n
    return _fit(_rfft_transpose(g, n, axis, norm), np.shape(x)[axis], axis)


@template_helper(shape_only=(1, 2), pure=True)
def irfft_vjp(g, a, ans, axis, norm):
    """Cotangent of np.fft.irfft(a, n, axis, norm); irfft reads a's first n // 2 + 1
    entries and ignores the imaginary part of the mean (and, n even, Nyquist) entry."""
    ct = _irfft_transpose(g, ans.shape[axis], axis, norm)
    return _real_if(_fit(ct, np.shape(a)[axis], axis), a)


@template_helper(shape_only=(1,), pure=True)
def rfftn_vjp(g, x, s, axes, norm):
    """Cotangent of np.fft.rfftn or rfft2: full transforms over all but the last axis,
    then rfft's transpose over the last."""
    axes = _nd_axes(np.ndim(x), s, axes)
    last = axes[-1]
    h = np.fft.fftn(g, axes=axes[:-1], norm=norm) if len(axes) > 1 else g
    n = np.shape(x)[last] if s is None else s[-1]
    return _fit_axes(_rfft_transpose(h, n, last, norm), np.shape(x), axes)


@template_helper(shape_only=(1, 2), pure=True)
def irfftn_vjp(g, a, ans, s, axes, norm):
    """Cotangent of np.fft.irfftn or irfft2: irfft's transpose over the last axis,
    then the inverse transforms over the others."""
    axes = _nd_axes(np.ndim(a), s, axes)
    ct = _irfft_transpose(g, ans.shape[axes[-1]], axes[-1], norm)
    if len(axes) > 1:
        ct = np.fft.ifftn(ct, axes=axes[:-1], norm=norm)
    return _real_if(_fit_axes(ct, np.shape(a), axes), a)


@template_helper(shape_only=(1, 2), pure=True)
def hfft_vjp(g, a, ans, axis, norm):
    """Cotangent of np.fft.hfft: NumPy computes irfft(conj(a)) with the dual scaling."""
    return np.conj(irfft_vjp(g, a, ans, axis, _DUAL[norm]))


@template_helper(shape_only=(1,), pure=True)
def ihfft_vjp(g, x, n, axis, norm):
    """Cotangent of np.fft.ihfft: NumPy computes conj(rfft(x)) with the dual scaling."""
    return rfft_vjp(np.conj(g), x, n, axis, _DUAL[norm])
