"""A real scalar's cotangent in `k * x` is one dot product (`dk = np.vdot(g, x)`) in rules
specialised to argument shapes (transform/ir/templates.py), not the sum of a fresh
product through `unbroadcast`. Every program runs against finite differences under every
policy (float32: its gradients stay float32 and agree with float64's); complex
values keep `unbroadcast`."""
import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_function, rng
from transform import grad
from transform.api import _wrt_names, compiled, signature_of


def specialised(fn, wrt, args):
    names, _ = _wrt_names(fn, wrt)
    return compiled(fn, names, "loop", signature=signature_of(args)).source


def scaled_loop(x, k, n):
    for _ in range(n):
        x = np.tanh(k * x) + x * k
    return np.sum(x ** 2)


def matrix_scale(A, k):
    return np.sum(np.sin(k * A) * A)


def broadcast_after(x, k, y):
    return np.sum((k * x)[:, None] * y[None, :])


def two_scalars(x, a, b):
    return np.sum(np.exp(a * x) * (x * b))


def complex_scale(x, k):
    return np.sum(np.abs(k * (x + 1j * x)) ** 2)


_X = rng("scalar_dot", 1).normal(size=4)
CASES = [
    (scaled_loop, (_X, 0.7, 3), (0, 1)),
    (matrix_scale, (rng("scalar_dot", 2).normal(size=(3, 4)), 0.4), (0, 1)),
    (broadcast_after, (_X, 1.3, _X[:3]), (0, 1, 2)),
    (two_scalars, (_X, 0.3, -0.8), (0, 1, 2)),
    (complex_scale, (_X, 0.6), (0, 1)),
]


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn,args,wrt", CASES, ids=[c[0].__name__ for c in CASES])
def test_against_finite_differences(fn, args, wrt, policy):
    check_function(fn, list(args), wrt, policy)


@pytest.mark.parametrize("fn,args,wrt", CASES[:4], ids=[c[0].__name__ for c in CASES[:4]])
def test_float32_stays_float32_and_agrees(fn, args, wrt):
    """float32 arrays: float32 gradients, close to the float64 ones checked above."""
    narrow = [a.astype(np.float32) if isinstance(a, np.ndarray) else a for a in args]
    got = grad(fn, wrt)(*narrow)
    want = grad(fn, wrt)(*args)
    for g, w, a in zip(got, want, [narrow[k] for k in wrt]):
        if isinstance(a, np.ndarray):
            assert g.dtype == np.float32
        np.testing.assert_allclose(np.asarray(g, dtype=np.float64), w, rtol=1e-4, atol=1e-5)


def test_the_scalar_cotangent_is_a_dot():
    text = specialised(matrix_scale, ("A", "k"), CASES[1][1])
    assert "dk = np.vdot(" in text and "unbroadcast(" not in text


def test_complex_values_keep_unbroadcast():
    assert "vdot" not in specialised(complex_scale, ("x", "k"), CASES[4][1])
