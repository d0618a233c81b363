"""red40: signal processing: FIR filters by np.convolve, IIR filters by loops and by
scipy.signal.lfilter, DFTs by cos/sin matrices and by np.fft.rfft, autocorrelation,
windowed spectra, Savitzky-Golay by least squares, total-variation denoising, chirp and
sinusoid fits, matched filters with a soft argmax."""
import numpy as np


def fir_design_loss(h, x, target):
    """an FIR filter applied by np.convolve(mode="same"), squared error."""
    y = np.convolve(x, h, mode="same")
    return np.sum((y - target) ** 2)


def iir_first_order(a, x):
    """y[n] = a y[n-1] + (1 - a) x[n] by a loop into a list."""
    y = [x[0]]
    for n in range(1, len(x)):
        y.append(a * y[-1] + (1 - a) * x[n])
    y = np.array(y)
    return np.sum(y ** 2)


def iir_biquad_inplace(coef, x):
    """a biquad written into a preallocated output with y[n] = ... ."""
    b0, b1, a1 = coef
    y = np.zeros_like(x)
    for n in range(len(x)):
        y[n] = b0 * x[n]
        if n >= 1:
            y[n] += b1 * x[n - 1] - a1 * y[n - 1]
    return np.sum(y * y)


def lfilter_scipy(b, x):
    from scipy.signal import lfilter
    y = lfilter(b, [1.0, -0.5], x)
    return np.sum(y ** 2)


def dft_matrix_power(x):
    """a real DFT by cos/sin matrices; the power at low frequencies."""
    n = len(x)
    k = np.arange(n)
    C = np.cos(2 * np.pi * np.outer(k, k) / n)
    S = np.sin(2 * np.pi * np.outer(k, k) / n)
    re, im = C @ x, -S @ x
    power = re ** 2 + im ** 2
    return power[1:4].sum()


def rfft_power(x):
    X = np.fft.rfft(x)
    return np.sum(np.abs(X[1:]) ** 2)


def autocorrelation(x, maxlag=3):
    """sample autocorrelations by slices in a comprehension; their squares summed."""
    xc = x - x.mean()
    denom = xc @ xc
    acf = [xc[:-k] @ xc[k:] / denom for k in range(1, maxlag + 1)]
    return sum(a ** 2 for a in acf)


def correlate_np(x, template):
    c = np.correlate(x, template, mode="valid")
    return np.sum(c ** 2)


def hann_spectrum_peak(f, n=32):
    """power of a Hann-windowed sinusoid of frequency f at bin 4 (f a float)."""
    t = np.arange(n)
    w = np.hanning(n)
    s = w * np.sin(2 * np.pi * f * t / n)
    re = s @ np.cos(2 * np.pi * 4 * t / n)
    im = s @ np.sin(2 * np.pi * 4 * t / n)
    return re * re + im * im


def savgol_by_lstsq(y, window=5, order=2):
    """Savitzky-Golay smoothing: the projection from a pseudo-inverse of a Vandermonde
    matrix, applied to each window by a comprehension."""
    half = window // 2
    A = np.vander(np.arange(-half, half + 1), order + 1, increasing=True)
    coeffs = np.linalg.pinv(A)[0]
    smooth = np.array([coeffs @ y[i - half:i + half + 1] for i in range(half, len(y) - half)])
    return np.sum((smooth - y[half:len(y) - half]) ** 2) + np.sum(smooth ** 4)


def tv_denoise(u, f, lam=0.5, eps=1e-3):
    """smoothed total variation: sqrt(diff^2 + eps) plus a data term."""
    return 0.5 * np.sum((u - f) ** 2) + lam * np.sum(np.sqrt(np.diff(u) ** 2 + eps))


def chirp_fit(p, t, y):
    f0, k, phase = p
    model = np.sin(2 * np.pi * (f0 * t + 0.5 * k * t ** 2) + phase)
    return np.mean((model - y) ** 2)


def sinusoid_ls(p, t, y):
    """amplitude, frequency, damping of a decaying sinusoid; residuals through a helper
    returning (residual, model)."""
    def residual(p):
        A, w, g = p
        model = A * np.exp(-g * t) * np.cos(w * t)
        return y - model, model
    r, m = residual(p)
    return r @ r + 0.01 * np.max(np.abs(m))


def matched_filter_softargmax(shift, x, template, beta=4.0):
    """a matched filter's soft argmax of the correlation; the template is shifted by a
    float with np.interp on a grid."""
    grid = np.arange(len(template), dtype=float)
    tpl = np.interp(grid - shift, grid, template)
    c = np.array([x[i:i + len(tpl)] @ tpl for i in range(len(x) - len(tpl) + 1)])
    w = np.exp(beta * (c - c.max()))
    w = w / w.sum()
    return w @ np.arange(len(c))


def moving_average_cumsum(x, k=3):
    c = np.cumsum(np.concatenate([[0.0], x]))
    ma = (c[k:] - c[:-k]) / k
    return np.sum(ma ** 2 * np.arange(1, len(ma) + 1))


def wiener_gain(noise_var, S):
    """a Wiener filter's gain S / (S + N) applied to power spectrum bins."""
    G = S / (S + noise_var)
    return np.sum(G * S) - np.sum(np.log(G))


def polyphase_decimate(h, x):
    """a decimating filter: strided slices x[p::2] against phases h[p::2]."""
    y = np.zeros(len(x) // 2 - 1)
    for p in range(2):
        xp, hp = x[p::2], h[p::2]
        y = y + np.convolve(xp, hp, mode="valid")[:len(y)]
    return np.sum(y ** 2)
