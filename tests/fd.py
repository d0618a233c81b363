"""Central finite differences in float64, independent of the code under test."""
import numpy as np


def numerical_grad(f, args, argnum, eps=1e-6):
    """d f(*args) / d args[argnum] by central differences; f returns a scalar."""
    args = list(args)
    x = args[argnum]
    if isinstance(x, (float, int)):
        def at(v):
            trial = list(args)
            trial[argnum] = v
            return float(f(*trial))
        return (at(x + eps) - at(x - eps)) / (2 * eps)
    x = np.asarray(x, dtype=np.float64)
    out = np.zeros_like(x)
    for k in np.ndindex(x.shape):
        for sign in (1, -1):
            trial = x.copy()
            trial[k] += sign * eps
            call = list(args)
            call[argnum] = trial
            out[k] += sign * float(np.sum(f(*call))) / (2 * eps)
    return out


def numerical_vjp(f, args, argnum, cotangent, eps=1e-6):
    """<cotangent, d f / d args[argnum]> by central differences, for any output shape."""
    return numerical_grad(lambda *a: np.sum(np.asarray(f(*a)) * cotangent), args, argnum, eps)


def assert_close(actual, expected, rtol=1e-5, atol=1e-7):
    np.testing.assert_allclose(np.asarray(actual, dtype=np.float64),
                               np.asarray(expected, dtype=np.float64), rtol=rtol, atol=atol)
