"""jvp with complex values (JAX's convention, transform/forward/complex_terms.py): a complex
argument's tangent is complex and the output's tangent is d/dh f(z + h t) at h = 0 (h
real), checked against central differences along the tangent direction (real and
imaginary parts moved together); complex seeds inside a real function; calls of a
helper; and the terms written for real values refused at their line."""
import dataclasses

import numpy as np
import pytest

from tests.forward import functions as F
from tests.gradcheck import rng
from transform import TransformError, jvp

H = 1e-6


def _along(f, args, tangents):
    """Central differences of f along the tangents (None: held)."""
    def at(s):
        return f(*[a if t is None else a + s * t for a, t in zip(args, tangents)])
    return (np.asarray(at(H)) - np.asarray(at(-H))) / (2 * H)


def holomorphic(z):
    return z ** 2 * np.exp(z) + np.sin(z) / (1.0 + z) - np.sqrt(z) * np.tanh(z)


def mixed(x, z):
    return x * z + np.cos(z) * x ** 2 - z / (2.0 + x)


def modulus_squared(z):
    return np.sum(np.real(z * np.conj(z))) + np.imag(z[0]) ** 2


def spectrum_energy(x):
    return np.real(np.sum(np.fft.fft(x) ** 2)) + np.sum(np.imag(np.fft.rfft(x)))


def product(W, z):
    return np.sum((W @ z)[1:] * z[0]) + np.sum(W, axis=0) @ z


def _scaled(z, w):
    return np.tanh(w * z) * 2.0


def calls(z, w):
    return _scaled(z, w) + z * _scaled(z ** 2, 0.5)


def parts_of_numbers(x, v):
    """`.real`/`.imag` of a Python complex and of an array (fuzz: forward_mode:340143)."""
    w = np.tanh(v).astype(np.complex128) + 1j * v
    return x + (complex(np.sum(w) * 0.1 + 3.0) * (1 - 2j)).imag + np.sum(w.imag * w.real)


def looped(z, n):
    s = z
    for k in range(n):
        s = s * z + np.exp(-k * s) / (k + 1)
    return s


R = rng(81)


def _complex(*shape):
    return R.normal(size=shape) + 1j * R.normal(size=shape)


Z, T = _complex(3), _complex(3)
X, TX = R.normal(size=3), R.normal(size=3)
CASES = {"holomorphic": (holomorphic, (Z + 2.0,), (T,)),
         "mixed": (mixed, (X, Z), (TX, T)),
         "mixed, real moved": (mixed, (X, Z), (TX, None)),
         "modulus": (modulus_squared, (Z,), (T,)),
         "fft of a real argument": (spectrum_energy, (X,), (TX,)),
         "matrix": (product, (_complex(3, 3), Z), (_complex(3, 3), T)),
         "a helper called": (calls, (Z, 0.7 - 0.2j), (T, 0.3j)),
         "a loop": (looped, (0.3 + 0.2j, 3), (1.0 - 0.5j, None)),
         "parts of numbers": (parts_of_numbers, (0.9, X), (0.5, TX)),
         "a scalar": (holomorphic, (1.1 + 0.4j,), (0.5j,))}


@pytest.mark.parametrize("case", sorted(CASES))
def test_tangent_along_a_complex_direction(case):
    fn, args, tangents = CASES[case]
    wrt = tuple(k for k, t in enumerate(tangents) if t is not None)
    out, tangent = jvp(fn, args, tuple(t for t in tangents if t is not None), wrt=wrt)
    np.testing.assert_allclose(out, fn(*args), rtol=1e-12)
    np.testing.assert_allclose(tangent, _along(fn, args, tangents), rtol=1e-6, atol=1e-8)
    complex_out = np.iscomplexobj(fn(*args))
    assert np.iscomplexobj(tangent) == complex_out


def test_a_real_tangent_of_a_complex_argument_is_taken_as_complex():
    out, tangent = jvp(holomorphic, (Z + 2.0,), (TX,))
    np.testing.assert_allclose(tangent, _along(holomorphic, (Z + 2.0,), (TX,)), rtol=1e-6)


def test_the_real_function_keeps_its_compiled_code():
    """A complex call is compiled apart: the real call after it still gives real
    tangents from its own code."""
    jvp(mixed, (X, Z), (TX, T))
    out, tangent = jvp(mixed, (X, X + 1.0), (TX, TX))
    assert not np.iscomplexobj(tangent)
    np.testing.assert_allclose(tangent, _along(mixed, (X, X + 1.0), (TX, TX)), rtol=1e-6)


def _maximum(z):
    return np.maximum(np.real(z), 0.0) * z


@pytest.mark.parametrize("fn, text", [(F.complex_abs, "np.abs(x * 1j)"),
                                      (_maximum, "np.maximum(np.real(z), 0.0)")])
def test_terms_written_for_real_values_are_refused_at_the_line(fn, text):
    z = Z if fn is _maximum else X
    with pytest.raises(TransformError, match="where values may be complex") as info:
        jvp(fn, (z,), (z,))
    assert text in info.value.source_line and info.value.hint


def _spectrum(x):
    return np.fft.fft(x)


def real_caller(x):
    return np.sum(np.abs(_spectrum(x)))


def test_a_helper_making_complex_values_for_a_real_caller_is_refused():
    """real_caller is compiled for real values (no seed in it): the complex value its
    helper returns would reach np.abs's real term unchecked."""
    with pytest.raises(TransformError, match="returns a complex value made from real") \
            as info:
        jvp(real_caller, (X,), (TX,))
    assert info.value.line == _spectrum.__code__.co_firstlineno


@dataclasses.dataclass
class Box:
    z: np.ndarray


def reads_a_field(box, x):
    return np.sum(np.abs(box.z) * x)


def scales_a_field(box, x):
    return np.sum(box.z * np.exp(box.z) * x)


def test_a_record_with_a_complex_field_compiles_for_complex_values():
    """holds_complex looks into records: the complex field moving through np.abs is
    refused, through holomorphic functions taken; a held record's field is a constant."""
    with pytest.raises(TransformError, match="where values may be complex"):
        jvp(reads_a_field, (Box(Z), X), (Box(T), TX))
    out, tangent = jvp(scales_a_field, (Box(Z), X), (Box(T), TX))
    want = _along(lambda z, x: scales_a_field(Box(z), x), (Z, X), (T, TX))
    np.testing.assert_allclose(tangent, want, rtol=1e-6)
    held = jvp(reads_a_field, (Box(Z), X), (TX,), wrt=1)[1]
    np.testing.assert_allclose(held, np.sum(np.abs(Z) * TX), rtol=1e-12)


def _applied(g, x):
    return g(x)


def through_a_helper(x):
    return np.sum(np.abs(_applied(np.fft.fft, x)))


def through_a_value(x, g):
    return np.sum(np.abs(g(x)))


@pytest.mark.parametrize("fn, args", [(through_a_helper, (X,)),
                                      (through_a_value, (X, np.fft.fft))],
                         ids=["a helper", "a function value"])
def test_a_complex_value_made_from_real_ones_by_a_call_is_refused(fn, args):
    """Both gave a complex, wrong tangent before (np.abs's real term took the FFT's
    complex values; the caller is compiled for real values)."""
    with pytest.raises(TransformError, match="fft returns a complex value made from real"):
        jvp(fn, args, (TX,), wrt=0)
