"""np.lib.stride_tricks.sliding_window_view has a rule since session 40 (red41: a conv1d
written with windows and einsum was refused as a function with no rule): linear, its
cotangent each window's added back where it reads (windows_vjp, np.add.at), a view for
the alias analysis (a write into the viewed array, then a read of the windows, is
refused). Programs in every mode against central differences in float64."""
import numpy as np
import pytest
from numpy.lib.stride_tricks import sliding_window_view

from tests.fd import assert_close, numerical_grad, numerical_jvp
from tests.gradcheck import rng
from transform import TransformError, grad, hvp, jvp

X = np.array([0.7, -0.4, 1.2, 0.3, -0.9, 0.5])


def conv1d(w, x):
    W = w.reshape(3, 2, 3)
    return np.sum(np.tanh(np.einsum("oit,ipt->op", W, sliding_window_view(x, 3, axis=1))) ** 2)


def windows_2d(x):
    W = sliding_window_view(np.outer(x, x[:3] * 1.3 + 0.37), (2, 2))
    return np.sum(W.max(axis=(-1, -2)) ** 2 + W.mean(axis=(-1, -2)))


def moving_average(x):
    return np.sum(sliding_window_view(np.tanh(x), 4).mean(axis=-1) ** 2)


R = rng("windows", 1)
CASES = [(conv1d, (0.5 * R.normal(size=18), R.normal(size=(2, 6))), 0),
         (conv1d, (0.5 * R.normal(size=18), R.normal(size=(2, 6))), 1),
         (windows_2d, (X,), 0), (moving_average, (X,), 0)]


@pytest.mark.parametrize("fn, args, k", CASES, ids=lambda c: getattr(c, "__name__", ""))
def test_every_mode(fn, args, k):
    g = grad(fn, k)
    assert_close(g(*args), numerical_grad(fn, args, k), 1e-6, 1e-7, "grad")
    v = rng("windows", fn.__name__, k).normal(size=np.shape(args[k]))
    assert_close(jvp(fn, args, (v,), wrt=k)[1], numerical_jvp(fn, args, k, v), 1e-6, 1e-7, "jvp")
    for route in ("forward_over_reverse", "reverse_over_forward"):
        try:
            got = hvp(fn, args, (v,), wrt=k, route=route)
        except TransformError:
            assert route == "forward_over_reverse"     # windows_vjp: no forward rule yet
            continue
        assert_close(got, numerical_jvp(g, args, k, v), 1e-5, 1e-6, f"hvp {route}")


def write_after_the_windows(x):
    y = x.copy()
    w = sliding_window_view(y, 3)
    y[0] = 5 * y[1]
    return np.sum(w ** 2)


def test_a_write_into_the_viewed_array_is_refused():
    with pytest.raises(TransformError, match="shared memory"):
        grad(write_after_the_windows)(X)
