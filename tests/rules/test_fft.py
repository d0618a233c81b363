"""np.fft's rules against central differences: every transform, with n/s (truncating
and padding), axis/axes and every norm, odd and even lengths, real and complex inputs
(complex ones are intermediate values in a program: tests/rules/test_fft_programs.py)."""
import numpy as np
import pytest

import runtime

from tests.rules.checks import rand
from tests.rules.complex_checks import check_complex_float32, check_complex_rule

fft = np.fft
NORMS = [None, "backward", "ortho", "forward"]
EVEN, ODD = rand(8, seed=1), rand(7, seed=2)
M46, M53, T234 = rand(4, 6, seed=3), rand(5, 3, seed=4), rand(2, 3, 4, seed=5)


def cplx(x, seed=9):
    return x + 1j * rand(*x.shape, seed=seed)


def _one_axis_cases():
    cases = []
    for fn in (fft.fft, fft.ifft, fft.rfft, fft.ihfft):
        for x in (EVEN, ODD):
            for n in (None, len(x) - 3, len(x) + 3):
                cases += [(fn, x, dict(n=n, norm=norm)) for norm in NORMS]
        cases += [(fn, M46, dict(axis=0)), (fn, M53, dict(axis=-1, n=4, norm="ortho")),
                  (fn, M53, dict(axis=0, n=8, norm="forward"))]
    for fn in (fft.fft, fft.ifft):                  # complex input
        cases += [(fn, cplx(ODD), dict(norm=norm)) for norm in NORMS]
        cases += [(fn, cplx(M46), dict(axis=0, n=3))]
    for fn in (fft.irfft, fft.hfft):               # a half spectrum in, n out
        for z in (cplx(rand(5, seed=6)), cplx(rand(4, seed=7))):
            for n in (None, 2 * len(z) - 1, 3, 2 * len(z) + 4):
                cases += [(fn, z, dict(n=n, norm=norm)) for norm in NORMS]
        cases += [(fn, cplx(M46), dict(axis=0)), (fn, cplx(M53), dict(axis=1, n=7))]
        cases += [(fn, rand(5, seed=8), {})]        # a real half spectrum
    return cases


def _n_axes_cases():
    cases = []
    for fn in (fft.fftn, fft.ifftn, fft.rfftn, fft.fft2, fft.ifft2, fft.rfft2):
        cases += [(fn, x, dict(norm=norm)) for x in (M46, M53) for norm in NORMS]
        cases += [(fn, M53, dict(s=(4, 5), axes=(0, 1))), (fn, M46, dict(s=(6, 3), axes=(1, 0))),
                  (fn, T234, dict(axes=(0, 2))), (fn, T234, dict(s=(3, 5), axes=(-2, -1),
                                                                 norm="ortho"))]
    for fn in (fft.fftn, fft.ifftn):
        cases += [(fn, T234, {}), (fn, T234, dict(axes=(1,), norm="forward")),
                  (fn, cplx(M53), dict(norm="ortho")), (fn, cplx(T234), dict(s=(2, 5), axes=(1, 2)))]
    for fn in (fft.irfftn, fft.irfft2):
        for z in (cplx(M46), cplx(M53)):
            cases += [(fn, z, dict(norm=norm)) for norm in NORMS]
            cases += [(fn, z, dict(s=(3, 7), axes=(0, 1))),
                      (fn, z, dict(s=(6, 4), axes=(0, 1), norm="ortho"))]
        cases += [(fn, cplx(T234), dict(axes=(0, 2))), (fn, cplx(T234), dict(axes=(2, 1)))]
    return cases


def _shift_cases():
    return [(fn, x, dict(axes=axes)) for fn in (fft.fftshift, fft.ifftshift)
            for x in (EVEN, ODD, M53) for axes in (None, 0, -1, (0,))
            if axes is None or np.ndim(x) > 1 or axes in (0, -1)] + \
           [(fft.fftshift, cplx(M53), {}), (fft.ifftshift, cplx(M46), dict(axes=(1, 0)))]


CASES = _one_axis_cases() + _n_axes_cases() + _shift_cases()
IDS = [f"{fn.__name__}-{x.dtype.kind}{x.shape}-{kw}" for fn, x, kw in CASES]


@pytest.mark.parametrize("fn, x, kwargs", CASES, ids=IDS)
def test_matches_finite_differences(fn, x, kwargs):
    check_complex_rule(fn, [x], kwargs)


@pytest.mark.parametrize("fn, x, kwargs", CASES[::5], ids=IDS[::5])
def test_float32_stays_float32(fn, x, kwargs):
    check_complex_float32(fn, [x], kwargs)


@pytest.mark.parametrize("fn", [fft.fftfreq, fft.rfftfreq])
@pytest.mark.parametrize("n", [7, 8])
def test_sample_frequencies_in_the_spacing(fn, n):
    check_complex_rule(fn, [n, 0.37], argnums=(1,))


def test_irfft_ignores_the_imaginary_part_of_the_mean_and_nyquist_entries():
    z = cplx(rand(5, seed=10))
    check_complex_rule(fft.irfft, [z], dict(n=8))     # n even: entry 4 is Nyquist
    out, pullback = runtime.lookup(fft.irfft).rrule(z, n=8)
    ct = runtime.unthunk(pullback(np.ones(8))[0])
    assert ct[0].imag == 0 and ct[4].imag == 0
