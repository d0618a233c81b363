"""Behaviour the mutation run (tools/mutate.py) found unpinned in
runtime/rules/scipy_special.py: each test kills a mutant the other tests let through."""
import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad
from tests.gradcheck import POLICIES, rng

sc = pytest.importorskip("scipy.special")

from transform import grad  # noqa: E402


def signed_logsumexp(a):
    value, sign = sc.logsumexp(a, b=np.array([1.0, -0.5, 2.0]), return_sign=True)
    return value * sign


@pytest.mark.parametrize("policy", POLICIES)
def test_logsumexp_with_return_sign_has_no_rule(policy):
    """Refused with the reason, rather than differentiated as if it returned one value."""
    with pytest.raises(TypeError, match="return_sign"):
        grad(signed_logsumexp, policy=policy)(np.array([0.3, -1.2, 0.8]))


W = np.array([[1.0 - 0.5j, 0.3 + 2.0j, -0.7j], [0.4, -1.1 + 0.2j, 2.0 + 1.0j]])


def _loss(y):
    return np.sum(np.real(y) + 3 * np.imag(y))


def softmax_of_complex(a, b):
    return _loss(sc.softmax((a + 1j * b).reshape(2, 3), axis=1) * W)


def log_softmax_of_complex(a, b):
    return _loss(sc.log_softmax((a + 1j * b).reshape(2, 3), axis=1) * W) + \
        _loss(sc.log_softmax(a[:3] + 0.5j * b[3:]) * W[0])


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("f", [softmax_of_complex, log_softmax_of_complex],
                         ids=lambda f: f.__name__)
def test_softmax_of_complex_values_is_differentiated(f, policy):
    """softmax and log_softmax are declared complex-correct (holomorphic: exp and a
    normalising sum), so a complex argument built from real inputs is differentiated,
    not refused, and matches central differences in the real and imaginary parts. With
    complex_ok=False the program was refused."""
    r = rng("mutants-scipy-special", f.__name__)
    a, b = r.normal(size=6), 0.3 * r.normal(size=6)
    for wrt in (0, 1):
        assert_close(grad(f, wrt=wrt, policy=policy)(a, b), numerical_grad(f, [a, b], wrt),
                     rtol=1e-6, atol=1e-8)
