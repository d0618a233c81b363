"""Zero tangents of ranges and complex numbers. A range's is a lazy sequence of zeros:
enumerate's counter is `range(start, 2 ** 62)` (lowering/normalize_loops.py), and hvp's forward-over-reverse
route walks its tangent in a zip; a list of its zeros raised MemoryError. A complex
number's is 0j (it was None, and `v_dot + zero_addend(0j)` failed)."""
import numpy as np

from runtime.forward import Zeros, zero_tangent
from tests.fd import assert_close, numerical_grad
from transform import hvp


def test_an_unbounded_range_has_lazy_zeros():
    t = zero_tangent(range(3, 1 << 62))
    assert isinstance(t, Zeros) and len(t) == (1 << 62) - 3
    assert t[0] == 0.0 and t[-1] == 0.0 and list(t[:3]) == [0.0, 0.0, 0.0]
    assert list(zip(range(2), t)) == [(0, 0.0), (1, 0.0)]


def enumerated(X, w):
    loss = 0.0
    for i, x in enumerate(X):
        loss += np.sin(x @ w) * (1.0 + 0.1 * i)
    return loss


def test_forward_over_reverse_through_enumerate():
    r = np.random.default_rng(4)
    X, w, v = r.normal(size=(4, 3)), r.normal(size=3), r.normal(size=3)
    got = hvp(enumerated, (X, w), (v,), wrt=1, route="forward_over_reverse")
    h = 1e-4                                    # differences of differences, no grad
    want = (numerical_grad(enumerated, [X, w + h * v], 1) -
            numerical_grad(enumerated, [X, w - h * v], 1)) / (2 * h)
    assert_close(got, want, 1e-4, 1e-6)


def test_a_complex_number_has_a_complex_zero_tangent():
    assert zero_tangent(2j) == 0j and isinstance(zero_tangent(2j), complex)
    assert zero_tangent(np.complex64(1j)).dtype == np.complex64


def complex_constant_added(v):
    z = np.asarray(v + 0j) * (1 + 2j)           # (forward_mode fuzz seed 35288)
    return np.sum(np.sin(np.fft.irfft(z[:3], n=4)))


def test_jvp_of_a_value_plus_a_complex_constant():
    from tests.fd import directional
    from transform import jvp
    v, t = np.array([0.9, -1.2, 0.9, 0.1]), np.array([0.3, 0.5, -0.2, 1.0])
    got = jvp(complex_constant_added, (v,), (t,))[1]
    assert_close(got, directional(complex_constant_added, [v], 0, t), 1e-6, 1e-8)
