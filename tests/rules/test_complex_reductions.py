"""Rules written for real values whose complex form needs a conjugate: np.linalg.norm,
np.vdot, np.var, np.std, astype to complex; against central differences (the
convention of docs/complex.md, checked as in complex_checks.py)."""
import numpy as np
import pytest

import runtime
from tests.gradcheck import POLICIES, check_grad
from tests.rules.checks import rand
from tests.rules.complex_checks import check_complex_rule

Z = rand(6, seed=1) + 1j * rand(6, seed=2)
ZM = rand(3, 4, seed=3) + 1j * rand(3, 4, seed=4)

CASES = [(np.linalg.norm, [Z], {}), (np.linalg.norm, [Z], dict(ord=1)),
         (np.linalg.norm, [Z], dict(ord=3)), (np.linalg.norm, [Z], dict(ord=np.inf)),
         (np.linalg.norm, [ZM], {}), (np.linalg.norm, [ZM], dict(ord="fro")),
         (np.linalg.norm, [ZM], dict(ord=1)), (np.linalg.norm, [ZM], dict(ord=-np.inf)),
         (np.linalg.norm, [ZM], dict(axis=1)), (np.linalg.norm, [ZM], dict(axis=0, ord=4)),
         (np.linalg.norm, [ZM], dict(axis=1, keepdims=True)),
         (np.var, [Z], {}), (np.var, [ZM], dict(axis=0, ddof=1)),
         (np.std, [Z], {}), (np.std, [ZM], dict(axis=1)), (np.std, [ZM], dict(keepdims=True))]


@pytest.mark.parametrize("fn, args, kwargs", CASES,
                         ids=[f"{f.__name__}-{a[0].shape}-{k}" for f, a, k in CASES])
def test_matches_finite_differences(fn, args, kwargs):
    check_complex_rule(fn, args, kwargs)


@pytest.mark.parametrize("a, b", [(Z, Z[::-1] * 2j), (Z.real, Z), (Z, Z.imag), (ZM, ZM.T)])
def test_vdot_conjugates_its_first_operand(a, b):
    check_complex_rule(np.vdot, [a, b], argnums=(0, 1))


@pytest.mark.parametrize("ord", [2, -2, "nuc"])
def test_complex_matrix_spectral_norms_are_refused(ord):
    out, pullback = runtime.lookup(np.linalg.norm).rrule(ZM, ord=ord)
    with pytest.raises(NotImplementedError, match="complex matrix"):
        runtime.unthunk(pullback(1.0)[0])


def signal_noise(x, w):
    spectrum = np.fft.fft(x * w)
    coherence = np.abs(np.vdot(spectrum, np.fft.fft(x))) / np.linalg.norm(spectrum)
    return np.var(spectrum) + np.std(spectrum[1:]) + coherence + np.sum(
        np.abs(x.astype(complex) * (1 + 1j)))


@pytest.mark.parametrize("policy", POLICIES)
def test_signal_statistics_program(policy):
    check_grad(signal_noise, [rand(7, seed=5), rand(7, seed=6, low=0.5)], policy=policy)
