"""Programs with FFTs and complex intermediate values between real inputs and a real
loss, under every policy against central differences: power spectra, spectral
filters, convolution through the FFT, Parseval, phase factors, spectral PDE steps."""
import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_grad
from tests.rules.checks import rand


def power_spectrum(x):
    return np.sum(np.abs(np.fft.rfft(x)) ** 2)


def spectral_filter(x, h):
    return np.sum(np.fft.irfft(np.fft.rfft(x) * h, len(x)) ** 2 * np.arange(len(x)))


def fft_convolution(a, b):
    n = len(a) + len(b) - 1
    return np.sum(np.fft.irfft(np.fft.rfft(a, n) * np.fft.rfft(b, n), n) ** 3)


def parseval_gap(x):
    spectrum = np.fft.fft(x, norm="ortho")
    return np.sum(x ** 2) - np.sum(np.real(spectrum * np.conj(spectrum))) + np.sum(x * x[::-1])


def phase_factors(x, k):
    z = np.exp(1j * k * x)
    return np.sum(np.real(z) * x) + np.sum(np.imag(z ** 2)) + np.sum(np.angle(z + 2.0))


def complex_arithmetic(x, y):
    z = (x + 2j * y) / (1.5 - 1j * x)
    w = z * np.conj(z) - z ** 2 + 3 / z + (1 + 1j) ** x
    return np.sum(w.real) + np.mean(w.imag ** 2) + np.abs(np.sum(z))


def image_spectrum(img):
    spectrum = np.fft.fftshift(np.fft.fft2(img, norm="ortho"))
    return np.sum(np.abs(spectrum[1:, 1:]) ** 1.5) + np.sum(np.fft.irfft2(np.fft.rfft2(img)) ** 2)


def spectral_heat(u0, nu):
    """Semi-implicit spectral steps of u_t = nu u_xx - u^3 (a loop of FFTs)."""
    n = len(u0)
    k = 2 * np.pi * np.fft.rfftfreq(n, d=1.0 / n)
    u = u0
    for _ in range(5):
        u_hat = np.fft.rfft(u - 0.01 * u ** 3)
        u = np.fft.irfft(u_hat / (1 + 0.01 * nu * k ** 2), n)
    return np.sum(u ** 2)


def advection_steps(u0, c):
    """Exact-phase advection by a speed c: u(x - c t) through the FFT, then a nonlinearity."""
    n = len(u0)
    k = 2 * np.pi * np.fft.fftfreq(n, d=0.1)
    u = u0
    for _ in range(4):
        u = np.real(np.fft.ifft(np.fft.fft(u) * np.exp(-1j * k * c * 0.02)))
        u = u + 0.1 * np.tanh(u)
    return np.sum(u * np.arange(n))


def spectrum_in_a_loop(xs):
    total = 0.0
    for row in xs:
        z = np.fft.fftn(row.reshape(2, 3), axes=(0, 1))
        total = total + np.sum(np.abs(z)) + np.sum(np.real(np.fft.ifftn(z * z)))
    return total


def transform_of_a_list(x):
    """A list of real and complex entries: the complex one keeps its complex cotangent."""
    z = np.fft.fft([x[0], x[1] * 2, x[2] + 1j * x[0]])
    return np.sum(np.abs(z) ** 2) + np.sum(np.abs(np.fft.rfft([x[0], x[1], x[2]])))


PROGRAMS = [
    (power_spectrum, [rand(8, seed=1)]), (power_spectrum, [rand(7, seed=2)]),
    (spectral_filter, [rand(8, seed=3), rand(5, seed=4)]),
    (spectral_filter, [rand(9, seed=5), rand(5, seed=6)]),
    (fft_convolution, [rand(5, seed=7), rand(4, seed=8)]),
    (parseval_gap, [rand(6, seed=9)]),
    (phase_factors, [rand(5, seed=10), 1.3]),
    (complex_arithmetic, [rand(4, seed=11, low=0.2), rand(4, seed=12)]),
    (image_spectrum, [rand(4, 5, seed=13)]),
    (spectral_heat, [rand(8, seed=14), 0.7]), (spectral_heat, [rand(9, seed=15), 0.3]),
    (advection_steps, [rand(8, seed=16), 0.8]),
    (spectrum_in_a_loop, [rand(3, 6, seed=17)]),
    (transform_of_a_list, [rand(3, seed=19)]),
]


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("f, args", PROGRAMS, ids=[f"{f.__name__}-{a[0].shape}" for f, a in PROGRAMS])
def test_program_matches_finite_differences(f, args, policy):
    got = check_grad(f, args, policy=policy)
    for g in (got if isinstance(got, tuple) else (got,)):
        assert not np.iscomplexobj(g), "a real argument's gradient must be real"


@pytest.mark.parametrize("policy", POLICIES)
def test_float32_program_gives_float32(policy):
    from transform import grad
    x = rand(8, seed=18).astype(np.float32)
    g = grad(spectral_heat, wrt=0, policy=policy)(x, 0.5)
    assert g.dtype == np.float32
    want = grad(spectral_heat, wrt=0, policy=policy)(x.astype(np.float64), 0.5)
    np.testing.assert_allclose(g, want, rtol=1e-4, atol=1e-5)
