"""np.fill_diagonal(a, v) as a statement (two positional arguments, a local name first)
is written `a[diagonal_positions(a)] = np.resize(v, diagonal_length(a))` since session 40
(red41: t-SNE's affinities and a mutation matrix were refused as an in-place call the
backward sweep cannot undo; transform/frontend/ufunc_at.py): square, tall and cubic
arrays, a scalar, a vector and a short (repeated) value, a differentiated value, an
argument written into (the caller's array unchanged), in every mode against central
differences in float64; wrap=True stays refused."""
import numpy as np
import pytest
from numpy import fill_diagonal

from tests.fd import assert_close, numerical_grad, numerical_jvp
from tests.gradcheck import rng
from transform import TransformError, grad, hvp, jvp

X = np.array([0.7, -0.4, 1.2, 0.3, -0.9, 0.5])


def zero_diagonal(x):
    M = np.outer(x, x[::-1])
    np.fill_diagonal(M, 0.0)
    return np.sum(M ** 2)


def differentiated_values(x):
    M = np.outer(x, x[::-1] + 0.3)
    fill_diagonal(M, np.tanh(x) * 2)
    return np.sum(M ** 3) + np.linalg.slogdet(M + 4 * np.eye(6))[1]


def tall_and_short_value(x):
    M = x.reshape(3, 2) * np.array([1.0, 2.0])
    np.fill_diagonal(M, x[0] * x[1])
    C = np.einsum("i,j,k->ijk", x[:3], x[3:], x[:3] + 1)
    np.fill_diagonal(C, x[3:5] ** 2)              # repeated: x[3]**2, x[4]**2, x[3]**2
    return np.sum(np.sin(M) * np.arange(6).reshape(3, 2)) + np.sum(C ** 2)


def in_a_loop(x):
    M = np.zeros((3, 3))
    for k in range(3):
        M = M + np.outer(x[:3], x[3:]) * k
        np.fill_diagonal(M, x[k])
    return np.sum(M ** 2)


@pytest.mark.parametrize("fn", (zero_diagonal, differentiated_values, tall_and_short_value,
                                in_a_loop), ids=lambda f: f.__name__)
def test_every_mode(fn):
    g = grad(fn)
    assert_close(g(X), numerical_grad(fn, (X,), 0), 1e-6, 1e-7, "grad")
    v = rng("fill_diagonal", fn.__name__).normal(size=6)
    assert_close(jvp(fn, (X,), (v,))[1], numerical_jvp(fn, (X,), 0, v), 1e-6, 1e-7, "jvp")
    assert_close(hvp(fn, (X,), (v,), route="reverse_over_forward"),
                 numerical_jvp(g, (X,), 0, v), 1e-5, 1e-6, "hvp")


def written_argument(M):
    np.fill_diagonal(M, 0.0)
    return np.sum(M ** 2)


def test_an_argument_written_into_is_copied_first():
    A = np.arange(9.0).reshape(3, 3) + 0.5
    before = A.copy()
    assert_close(grad(written_argument)(A), numerical_grad(written_argument, (A,), 0))
    assert np.array_equal(A, before)


def wrapped(x):
    M = np.outer(x, x[:2])
    np.fill_diagonal(M, 0.0, wrap=True)
    return np.sum(M ** 2)


def test_wrap_stays_refused():
    with pytest.raises(TransformError, match="in place"):
        grad(wrapped)(X)
