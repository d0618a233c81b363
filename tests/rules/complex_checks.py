"""Checks for rules on complex values, against central differences (tests/fd.py).

The convention (docs/complex.md): a real loss L, z = a + ib, the cotangent of z is
dL/da - i dL/db; a real argument's cotangent is dL/dx, real. A rule's pullback with
cotangent G for output y is checked against L = Re(sum(G * y)), the pairing whose
gradient the convention makes the vector-Jacobian product.
"""
import copy

import numpy as np

import runtime
from tests.fd import assert_close, numerical_grad


def random_cotangent(out, seed=1):
    """A random cotangent shaped like the output: complex for a complex output."""
    r = np.random.default_rng(seed)
    g = r.standard_normal(np.shape(out))
    if np.iscomplexobj(out):
        g = g + 1j * r.standard_normal(np.shape(out))
    return np.asarray(g, dtype=np.asarray(out).dtype)


def paired(f, G):
    """x -> Re(sum(G * f(x))), the real loss whose gradient is the VJP with G."""
    return lambda *args: float(np.real(np.sum(G * np.asarray(f(*args), dtype=complex))))


def expected_cotangent(loss, args, k):
    """dL/dx for a real args[k]; dL/da - i dL/db for a complex one."""
    x = args[k]
    if not np.iscomplexobj(x):
        return numerical_grad(loss, args, k)
    a, b = np.real(x).astype(float), np.imag(x).astype(float)
    at = list(args)
    da = numerical_grad(lambda v: loss(*_with(at, k, v + 1j * b)), [a], 0)
    db = numerical_grad(lambda v: loss(*_with(at, k, a + 1j * v)), [b], 0)
    return da - 1j * db


def _with(args, k, value):
    args = list(args)
    args[k] = value
    return args


def check_complex_rule(fn, args, kwargs=None, argnums=(0,), rtol=1e-6, atol=1e-8):
    """fn's rule: each argument in `argnums` gets the cotangent of the convention (real
    for a real argument), inputs unchanged."""
    kwargs = kwargs or {}
    before = copy.deepcopy(args)
    out, pullback = runtime.lookup(fn).rrule(*args, **kwargs)
    np.testing.assert_allclose(out, fn(*args, **kwargs))
    G = random_cotangent(out)
    cots = pullback(G)
    loss = paired(lambda *a: fn(*a, **kwargs), G)
    for k in argnums:
        got = runtime.unthunk(cots[k])
        want = expected_cotangent(loss, args, k)
        if got is None:                     # a zero cotangent
            got = np.zeros(np.shape(args[k]), dtype=np.asarray(args[k]).dtype)
        assert np.shape(got) == np.shape(args[k])
        if not np.iscomplexobj(args[k]):
            assert not np.iscomplexobj(got), "a real argument got a complex cotangent"
        assert_close(np.real(got), np.real(want), rtol=rtol, atol=atol)
        assert_close(np.imag(got), np.imag(want), rtol=rtol, atol=atol)
    for a, b in zip(args, before):
        np.testing.assert_array_equal(a, b)


def check_complex_float32(fn, args, kwargs=None):
    """float32 (complex64) in gives float32 (complex64) cotangents."""
    args = [a.astype(np.complex64 if np.iscomplexobj(a) else np.float32)
            if isinstance(a, np.ndarray) else a for a in args]
    out, pullback = runtime.lookup(fn).rrule(*args, **(kwargs or {}))
    cot = runtime.unthunk(pullback(random_cotangent(out))[0])
    assert np.asarray(cot).dtype == args[0].dtype, (np.asarray(cot).dtype, args[0].dtype)
