"""Shared checks for the acceptance tests: gradients and VJPs against central
finite differences (tests/fd.py, float64), with read-only inputs that must be
left unchanged and gradients shaped and typed like their arguments."""
import numpy as np

from tests.fd import assert_close, numerical_grad, numerical_vjp
from transform import grad, vjp

POLICIES = ("loop", "eager", "flat", "nested")


def readonly(args):
    """Copies of the array arguments with write=False (scalars/containers as they are)."""
    out = []
    for a in args:
        if isinstance(a, np.ndarray):
            a = a.copy()
            a.setflags(write=False)
        out.append(a)
    return out


def is_float_arg(a):
    if isinstance(a, bool):
        return False
    if isinstance(a, float):
        return True
    return isinstance(a, np.ndarray) and a.dtype.kind == "f"


def _snapshot(args):
    return [a.copy() if isinstance(a, np.ndarray) else a for a in args]


def _assert_unchanged(before, after):
    for b, a in zip(before, after):
        if isinstance(b, np.ndarray):
            np.testing.assert_array_equal(a, b)
            assert not a.flags.writeable
        else:
            assert a == b or (a != a and b != b)


def assert_like(g, x):
    """A gradient has its argument's type: float for float, same shape/dtype arrays."""
    if isinstance(x, np.ndarray):
        assert isinstance(g, np.ndarray), f"expected an ndarray gradient, got {type(g)}"
        assert g.shape == x.shape, (g.shape, x.shape)
        assert g.dtype == x.dtype, (g.dtype, x.dtype)
    elif isinstance(x, float):
        assert type(g) is float, f"expected a float gradient, got {type(g).__name__}"


def check_grad(f, args, wrt=None, policy=None, rtol=1e-5, atol=1e-7, eps=1e-6):
    """grad(f, wrt) vs central differences, one argument at a time and all together."""
    args = readonly(args)
    before = _snapshot(args)
    if wrt is None:
        wrt = [k for k, a in enumerate(args) if is_float_arg(a)]
    wrt = tuple(wrt)
    got = grad(f, wrt=wrt, policy=policy)(*args)
    assert isinstance(got, tuple) and len(got) == len(wrt)
    for k, g in zip(wrt, got):
        assert_like(g, args[k])
        expected = numerical_grad(f, args, k, eps=eps)
        assert_close(g, expected, rtol=rtol, atol=atol)
    _assert_unchanged(before, args)
    return got


def check_vjp(f, args, wrt=None, policy=None, seed=0, rtol=1e-5, atol=1e-7):
    """vjp(f) with a random cotangent vs central differences, for every float argument."""
    args = readonly(args)
    before = _snapshot(args)
    if wrt is None:
        wrt = [k for k, a in enumerate(args) if is_float_arg(a)]
    wrt = tuple(wrt)
    out, pullback = vjp(f, *args, wrt=wrt, policy=policy)
    expected_out = f(*args)
    assert_close(out, expected_out, rtol=1e-12, atol=0)
    rng = np.random.default_rng(seed)
    if isinstance(out, np.ndarray) and out.ndim > 0:
        cot = rng.normal(size=out.shape)
    else:
        cot = float(rng.normal())
    got = pullback(cot)
    assert len(got) == len(wrt)
    for k, g in zip(wrt, got):
        assert_like(g, args[k])
        expected = numerical_vjp(f, args, k, cot)
        assert_close(g, expected, rtol=rtol, atol=atol)
    _assert_unchanged(before, args)
    return got


def directional_fd(f, args, k, direction, eps=1e-6):
    """d/dt f(args with args[k] + t*direction) at t=0, central differences."""
    def at(t):
        trial = list(args)
        trial[k] = np.asarray(args[k], dtype=np.float64) + t * direction
        return float(f(*trial))
    return (at(eps) - at(-eps)) / (2 * eps)


__all__ = ["POLICIES", "readonly", "check_grad", "check_vjp", "assert_like",
           "directional_fd", "numerical_grad", "numerical_vjp", "assert_close"]
