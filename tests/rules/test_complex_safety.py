"""Rules written for real values never see a complex value silently (docs/complex.md,
runtime/complex_safety.py): the red team's programs (round 26) whose gradients were
wrong with no error now give the finite-difference gradient or a TransformError at the
user's line, under every policy."""
import numpy as np
import pytest

from transform import TransformError, grad
from tests.gradcheck import POLICIES, check_grad
from tests.rules.checks import rand
from tests.optional_scipy import if_scipy, scipy_module

sla, special = scipy_module("linalg"), scipy_module("special")


def _r(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape)


# ---- refused: a decomposition or a real-valued rule reached by a complex value ----------
def cholesky_of_hermitian(a, b):
    A = a + 1j * b
    L = np.linalg.cholesky(A @ np.conj(A.T) + 3 * np.eye(3))
    return np.sum(np.abs(L) ** 2) + np.real(L[2, 1])


def eigh_of_hermitian(a, b):
    A = a + 1j * b
    w, v = np.linalg.eigh((A + np.conj(A.T)) / 2)
    return np.sum(w * np.arange(1, 4))


def eigvalsh_of_hermitian(a, b):
    A = a + 1j * b
    return np.sum(np.linalg.eigvalsh(A @ A.conj().T) * np.array([1.0, 2.0, 3.0]))


def singular_values(a, b):
    return np.sum(np.linalg.svd(a + 1j * b, compute_uv=False) ** 3)


def complex_slogdet(a, b):
    sign, logdet = np.linalg.slogdet(a + 1j * b + 2 * np.eye(3))
    return logdet + 2 * np.imag(sign)


def complex_qr(a, b):
    q, r = np.linalg.qr(a + 1j * b)
    return np.sum(np.abs(r) ** 2 * np.arange(3.0))


def complex_lstsq(a, b):
    x = np.linalg.lstsq(a + 1j * b, np.array([1.0, 2.0, 0.5]) + 0j, rcond=None)[0]
    return np.real(x[0])


def scipy_eigh_values(a, b):
    A = a + 1j * b
    return np.sum(sla.eigh(A @ A.conj().T + np.eye(3), eigvals_only=True) * np.arange(3.0))


def scipy_cho_solve(a, b):
    A = a + 1j * b
    c = sla.cho_factor(A @ A.conj().T + 2 * np.eye(3))
    return np.real(np.sum(sla.cho_solve(c, np.ones(3) + 0j)))


def covariance_of_spectra(a, b):
    return np.real(np.sum(np.cov(a + 1j * b)))


def logsumexp_of_spectrum(a, b):
    return np.real(special.logsumexp(np.fft.fft(a[0] + b[0])))


def gradient_of_spectrum(a, b):
    X = np.fft.fft(a[0] * b[1])
    return np.abs(np.sum(X * np.conj(np.gradient(X))))


def convolve_spectra(a, b):
    X = np.fft.fft(a[0] + b[0])
    return np.sum(np.abs(np.convolve(X, X[:2])))


def spectral_matrix_norm(a, b):
    return np.linalg.norm(a + 1j * b, 2)


REFUSED = [cholesky_of_hermitian, eigh_of_hermitian, eigvalsh_of_hermitian, singular_values,
           complex_slogdet, complex_qr, complex_lstsq, covariance_of_spectra,
           gradient_of_spectrum, convolve_spectra, spectral_matrix_norm] + if_scipy(
    scipy_eigh_values, scipy_cho_solve, logsumexp_of_spectrum)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("f", REFUSED, ids=lambda f: f.__name__)
def test_a_complex_value_reaching_a_real_only_rule_is_refused_at_its_line(f, policy):
    with pytest.raises(TransformError, match="real values|real values only|complex matrix") \
            as info:
        grad(f, policy=policy)(_r(3, 3, seed=1), _r(3, 3, seed=2))
    assert info.value.filename == __file__
    assert info.value.line is not None and info.value.hint


def real_singular_values(a):
    return np.sum(np.linalg.svd(a, compute_uv=False) ** 3)


def real_covariance(a):
    return np.sum(np.cov(a) * np.arange(3.0))


@pytest.mark.parametrize("f", [real_singular_values, real_covariance])
def test_the_same_rules_stay_differentiable_for_real_values(f):
    check_grad(f, [_r(3, 3, seed=3)])


# ---- fixed: now the finite-difference gradient -------------------------------------------
def max_and_min_of_complex(a, b):
    z = a + 1j * b
    m = np.max(z)
    return np.real(m) + 3 * np.imag(m) + np.abs(np.min(z))


def amax_amin_over_axes(a, b):
    z = (a + 1j * b).reshape(2, 3)
    return np.sum(np.real(np.amax(z, axis=1))) + np.sum(np.imag(np.min(z, axis=0))) + \
        np.imag(z.max())


def builtin_max_with_a_key(x):
    z = np.fft.fft(x)
    peak = max(list(z[1:]), key=abs)
    return np.real(peak) + 2 * np.imag(peak)


def builtin_sum_of_complex_entries(x):
    X = np.fft.fft(x)
    return np.real(sum(X[1:3])) + np.abs(sum(X))


def concatenate_spectrum_and_real_slice(x):
    Z = np.concatenate([np.fft.rfft(x), x[:2]])
    return np.sum(np.abs(Z) ** 2)


def where_then_concatenate(x):
    X = np.fft.rfft(x)
    Y = np.where(np.abs(X) > 0.5, X, 0.1 * X)
    return np.sum(np.abs(np.concatenate([Y, x[:2], np.conj(Y)])) ** 2)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("f", [max_and_min_of_complex, amax_amin_over_axes])
def test_max_and_min_of_complex_values_keep_the_imaginary_part(f, policy):
    check_grad(f, [rand(6), rand(6, seed=4)], wrt=(0, 1), policy=policy)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("f", [builtin_max_with_a_key, builtin_sum_of_complex_entries,
                               concatenate_spectrum_and_real_slice, where_then_concatenate],
                         ids=lambda f: f.__name__)
def test_builtins_and_joins_over_complex_values(f, policy):
    check_grad(f, [rand(7, seed=5)], policy=policy)


# ---- the seed scan that turns the real 0.0 stand-in off ---------------------------------
def test_seed_scan_finds_complex_literals_types_and_calls():
    import gast
    from transform.analysis.complex_seeds import has_complex_literal, is_seed_call
    assert has_complex_literal(gast.parse("a + 1j * b", mode="eval").body)
    assert has_complex_literal(gast.parse("np.zeros(3, dtype=np.complex128)", mode="eval").body)
    assert has_complex_literal(gast.parse("x.astype(complex)", mode="eval").body)
    assert not has_complex_literal(gast.parse("a + 2.0 * b", mode="eval").body)
    assert is_seed_call(np.fft.rfft) and is_seed_call(complex)
    assert not is_seed_call(np.sin) and not is_seed_call({}.get)


def imag_of_max(a, b):
    m = np.max(a + 1j * b)
    return np.imag(m)


def max_of_real(a, b):
    m = np.max(a * b)
    return np.sin(m) * 2.0


def test_a_complex_scalar_is_not_replaced_by_a_real_zero():
    from transform import adjoint_source
    assert "imag_vjp(dt3, m)" in adjoint_source(imag_of_max, wrt="b")
    check_grad(imag_of_max, [rand(5), rand(5, seed=2)], wrt=(0, 1))


def test_real_functions_keep_the_stand_in():
    check_grad(max_of_real, [rand(5), rand(5, seed=2)], wrt=(0, 1))


def _peak_imag(z):
    return np.imag(np.max(z))


def _complex_into_helper(x):
    return _peak_imag(x * (1 + 2j))


def _doubled(z):
    return z * 2.0


def _complex_through_plain_helper(x):
    return np.sum(np.abs(_doubled(x * (1 + 2j))) ** 2)


@pytest.mark.parametrize("policy", POLICIES)
def test_helper_whose_rule_assumes_real_arguments_refuses_a_complex_one(policy):
    # the helper's rule stands in a real 0.0 for max's scalar result: given a complex z
    # it would drop the imaginary part of the cotangent (the gradient came out 0)
    with pytest.raises(TransformError, match="assumes real"):
        grad(_complex_into_helper, policy=policy)(np.array([1.0, -3.0, 2.0]))


@pytest.mark.parametrize("policy", POLICIES)
def test_helper_without_that_assumption_takes_complex_values(policy):
    x = np.array([1.0, -3.0, 2.0])
    check_grad(_complex_through_plain_helper, [x], policy=policy)
