"""real, imag, conj, abs and angle of complex values, complex arithmetic with
broadcasting, and the runtime paths that meet complex cotangents (accumulation into
buffers that began real, the real part at the real -> complex boundary)."""
import cmath

import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_grad
from tests.rules.checks import rand
from tests.rules.complex_checks import check_complex_float32, check_complex_rule
from transform import grad

Z = rand(6, seed=1) + 1j * rand(6, seed=2)
X = rand(6, seed=3)
PARTS = [(np.real, {}), (np.imag, {}), (np.conj, {}), (np.conjugate, {}), (np.abs, {}),
         (np.absolute, {}), (np.angle, {}), (np.angle, dict(deg=True))]


@pytest.mark.parametrize("fn, kwargs", PARTS, ids=lambda v: getattr(v, "__name__", str(v)))
@pytest.mark.parametrize("x", [Z, X, Z.reshape(2, 3)], ids=["complex", "real", "complex2d"])
def test_part_matches_finite_differences(fn, kwargs, x):
    check_complex_rule(fn, [x], kwargs)


@pytest.mark.parametrize("fn, kwargs", PARTS, ids=lambda v: getattr(v, "__name__", str(v)))
def test_part_float32(fn, kwargs):
    check_complex_float32(fn, [Z], kwargs)


@pytest.mark.parametrize("fn", [np.abs, np.angle])
def test_zero_gets_a_zero_cotangent(fn):
    import runtime
    z = np.array([0j, 1 + 1j])
    out, pullback = runtime.lookup(fn).rrule(z)
    ct = runtime.unthunk(pullback(np.ones(2))[0])
    assert ct[0] == 0 and np.all(np.isfinite(ct))


def attributes(x, y):
    z = x * (1 + 2j) + y * 1j
    return np.sum(z.real * z.imag) + np.sum(abs(z.conj()) ** 2) + np.sum(z.conjugate().imag)


def broadcast_arithmetic(col, row):
    z = col[:, None] * np.exp(1j * row) - (2 - 1j) / (1 + col[:, None] ** 2 + 0.5j)
    return np.sum(np.abs(z) ** 2) + np.sum(np.real(z * 1j)) - np.sum((z ** 3).imag)


def real_then_imag_in_a_loop(x):
    """z's first cotangent is real (np.real), later ones complex: the buffer must not
    drop their imaginary parts."""
    z = x * (0.5 + 1.5j)
    total = 0.0
    for k in range(3):
        total = total + np.sum(np.real(z) * (k + 1))
        total = total + np.sum(np.imag(z) ** 2) + np.sum(np.abs(z) * k)
    return total


def complex_entries(xs):
    zs = xs * (1 - 2j)
    total = 0.0
    for z in zs:
        total = total + z.real * z.imag + abs(z) + np.angle(z)
    return total


def python_complex_scalar(t):
    z = complex(0.5, 0.25) * t + 1j
    return abs(z) + (z * z).real


PROGRAMS = [(attributes, [X, rand(6, seed=4)]), (broadcast_arithmetic, [rand(3, seed=5), X[:4]]),
            (real_then_imag_in_a_loop, [X]), (complex_entries, [X]),
            (python_complex_scalar, [0.7])]


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("f, args", PROGRAMS, ids=[f.__name__ for f, _ in PROGRAMS])
def test_program_matches_finite_differences(f, args, policy):
    got = check_grad(f, args, policy=policy)
    for g in (got if isinstance(got, tuple) else (got,)):
        assert not np.iscomplexobj(g)


def test_complex_argument_is_refused():
    with pytest.raises(TypeError, match="complex"):
        grad(lambda z: np.sum(np.abs(z)))(Z)


def test_complex_output_is_refused():
    with pytest.raises(TypeError, match="complex"):
        grad(lambda x: np.sum(x * 1j))(X)


@pytest.mark.parametrize("x", [Z, X], ids=["complex", "real"])
def test_sign_matches_finite_differences(x):
    check_complex_rule(np.sign, [x])


def zero_slopes(x):
    """np.imag, np.sign and np.angle of real values have zero cotangents."""
    return np.sum(x ** 2 + np.imag(x) * x + np.sign(x) * x + np.angle(x) * x)


@pytest.mark.parametrize("policy", POLICIES)
def test_zero_cotangents_of_real_parts(policy):
    check_grad(zero_slopes, [X], policy=policy)


def phase_only(x):
    z = np.fft.fft(x)
    return np.sum(np.real(np.fft.ifft(np.sign(z) * np.abs(z) ** 0.5)) * np.arange(len(x)))


@pytest.mark.parametrize("policy", POLICIES)
def test_phase_only_reconstruction(policy):
    check_grad(phase_only, [rand(6, seed=7)], policy=policy)


def complex_powers(x):
    """Complex and negative bases with a differentiated exponent: the principal log."""
    bases = np.array([0.5 - 2j, -1.5 + 0.3j, 2j])
    return np.sum(np.real((-1 + 1j) ** x) + np.imag((-2.0 + 0j) ** (x * 0.5))) + \
        np.sum(np.abs(bases ** (x + 1j))) + np.sum(np.real(2.0 ** (1j * x)))


@pytest.mark.parametrize("policy", POLICIES)
def test_complex_powers(policy):
    check_grad(complex_powers, [np.array([0.3, 1.2, -0.7])], policy=policy)


def cmath_scalars(t):
    z = cmath.exp(1j * t) + cmath.log(t + 1j) + cmath.sqrt(t - 2j) + cmath.sin(t * 1j) + \
        cmath.log(t + 0.5j, 2.0 + t) + cmath.cos(t) * cmath.tan(0.3j + t)
    w = cmath.sinh(t + 0.2j) * cmath.cosh(t) + cmath.tanh(t + 1j) + cmath.rect(t, 2 * t)
    return z.real + z.imag * cmath.phase(z) + abs(w) + cmath.rect(2.0, t).imag


def built_complex(x):
    z = complex(x[0], 2 * x[1]) * np.complex128(x[1]) + complex(x[0])
    return abs(z * z) + np.sum(np.abs(np.complex128(x[0]) * x))


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("f, args", [(cmath_scalars, [0.7]), (built_complex, [X[:2]])],
                         ids=["cmath", "constructors"])
def test_scalar_complex_functions(f, args, policy):
    check_grad(f, args, policy=policy)
