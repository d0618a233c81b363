"""grad(f, lowering="numba"): the plain lowering jitted by numba (transform/public/
numba_gradient.py, runtime/numba_helpers.py). Its gradients against central finite
differences and the plain lowering's; the fallback to the plain lowering in Python, with
one warning, where numba fails to compile or would compute differently (integers past 64
bits, float32, 0-d arrays), and where a global or closure value numba froze changes.

`make test` installs numba and sets THUNKGRAD_NUMBA=required, so these never skip there.
numba compiles each function in seconds: the module compiles few, and shares them."""
import math
import os
import sys
import warnings

import numpy as np
import pytest

from runtime.helpers import unbroadcast
from tests.fd import assert_close, numerical_grad
from transform import adjoint_source, grad, value_and_grad
from transform.public.cache import rules_of
from transform.public.numba_gradient import NumbaFallbackWarning

try:
    import numba
except ImportError:                     # `make test` sets THUNKGRAD_NUMBA=required: it fails there
    if os.environ.get("THUNKGRAD_NUMBA") == "required":
        raise
    numba = None
needs_numba = pytest.mark.skipif(numba is None, reason="numba is not installed")

STEPS = 12
SCALE = 2.0
N = 3


def simulate(k, x0, damping):
    x = x0
    v = np.zeros_like(x0)
    for i in range(STEPS):
        a = -k * x - damping * v
        v = v + 0.05 * a
        x = x + 0.05 * v
    return np.sum(x ** 2)


def scaled(x, n):
    return np.sum(SCALE * x * x * n)


def powered(x):
    return np.sum(x * N ** 40)      # 3 ** 40 > 2 ** 63: numba's int64 would wrap


def mean_square(x):
    return np.mean(x * x)           # reduction_size: no numba overload


def formatted(x):
    assert np.all(np.isfinite(x)), f"x: {np.sum(x):.3f}"    # numba: unsupported bytecode
    return np.sum(x * x)


def pole(x):
    return 1.0 / (np.sum(x) - 3.0)  # at sum(x) == 3: numba raises ZeroDivisionError


def logged(x):
    return math.log(x) * np.sum(x * x)  # math.log(-1.0): ValueError, numba's nan


def closing_over(c):
    pair = (c, 2.0)                 # numba freezes a closure's tuple, its array's entries
    def inner(x):
        return np.sum(pair[0] * np.sin(x)) * pair[1]
    return inner


def unbroadcast_call(g, x):
    return unbroadcast(g, x)


def _jitted(fn):
    """Whether numba compiled a plain function of fn (at least once)."""
    jitted = [getattr(rule.rrule, "thunkgrad_numba", None) for rule in rules_of(fn).values()]
    return any(j is not None and j.function.signatures for j in jitted)


def _no_fallback(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("error", NumbaFallbackWarning)
        return fn(*args, **kwargs)


def _one_fallback(fn, *args):
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        out = fn(*args)
    said = [w for w in said if w.category is NumbaFallbackWarning]
    assert len(said) == 1, [str(w.message) for w in said]
    return out, str(said[0].message)


@pytest.fixture(scope="module")
def simulated():
    """simulate's numba gradient, compiled once for the module."""
    args = (0.7, np.linspace(-1.0, 1.0, 5), 0.1)
    return grad(simulate, (0, 1, 2), lowering="numba"), args


@needs_numba
def test_a_loop_is_jitted_and_matches_differences(simulated):
    gradient, args = simulated
    got = _no_fallback(gradient, *args)
    assert _jitted(simulate)
    for k, g in enumerate(got):
        assert_close(g, numerical_grad(simulate, args, k))
    plain = grad(simulate, (0, 1, 2), lowering="plain")(*args)
    for g, p in zip(got, plain):
        np.testing.assert_allclose(g, p, rtol=1e-12, atol=1e-15)


@needs_numba
def test_value_and_grad_and_keywords_share_the_compiled_function(simulated):
    _, (k, x0, damping) = simulated
    value, got = _no_fallback(value_and_grad(simulate, (0, 1, 2), lowering="numba"), k, x0,
                              damping=damping)
    assert value == pytest.approx(simulate(k, x0, damping), rel=1e-12)
    for n, g in enumerate(got):
        assert_close(g, numerical_grad(simulate, (k, x0, damping), n))


@needs_numba
def test_an_unsupported_helper_falls_back_with_one_warning_and_its_reason():
    x = np.array([0.5, -1.0, 2.0])
    gradient = grad(mean_square, lowering="numba")
    got, message = _one_fallback(gradient, x)
    assert "runs the plain lowering in Python" in message and "reduction_size" in message
    assert len(message.splitlines()) <= 3           # the headline, numba's reason in two
    assert_close(got, numerical_grad(mean_square, (x,), 0))
    assert_close(_no_fallback(gradient, x), got)    # said once; not compiled again
    got, message = _one_fallback(grad(formatted, lowering="numba"), x)  # not a NumbaError
    assert "UnsupportedBytecodeError" in message
    assert_close(got, numerical_grad(formatted, (x,), 0))


@needs_numba
@pytest.mark.parametrize("n, jitted", [(3, True), (3 * 2 ** 30, False)])
def test_integer_arguments(n, jitted):
    x = np.array([0.5, -1.0])
    gradient = grad(scaled, lowering="numba")
    if jitted:
        got = _no_fallback(gradient, x, n)
    else:
        got, message = _one_fallback(gradient, x, n)
        assert "the integer 3221225472" in message
    assert_close(got, numerical_grad(scaled, (x, n), 0))


@needs_numba
def test_an_integer_power_is_not_run_jitted():
    x = np.array([0.5, -1.0])
    got, message = _one_fallback(grad(powered, lowering="numba"), x)
    assert "an integer **" in message
    assert_close(got, numerical_grad(powered, (x,), 0))
    assert got[0] > 1e19                            # not numba's wrapped -6.3e18


def growing_product(x, n):
    p = 1
    for i in range(n):
        p = p * 1000                # 1000 ** 10 > 2 ** 63: numba's int64 wraps
    return np.sum(x * p)


def fibonacci(x, n):
    a, b = 0, 1
    for i in range(n):
        a, b = b, a + b             # a sum of two growing ints: fib(100) > 2 ** 63
    return np.sum(x * a)


def truncated(x, y):
    return np.sum(x * int(y))       # int(1e20): numba's int64 is garbage


@needs_numba
@pytest.mark.parametrize("f, arg, said", [(growing_product, 10, "integer *"),
                                          (fibonacci, 100, "integer +"),
                                          (truncated, 1e20, "made of a float")])
def test_integer_arithmetic_that_can_outgrow_64_bits_is_not_run_jitted(f, arg, said):
    x = np.array([0.5, -1.0])
    got, message = _one_fallback(grad(f, lowering="numba"), x, arg)
    assert said in message
    assert_close(got, numerical_grad(f, (x, arg), 0))
    assert got[0] > 1e19                            # Python's int, not a wrapped one


def rooted(x, y):
    return np.sum(x * y ** 0.5)     # y < 0: Python's ** is complex, numba's nan


@needs_numba
def test_a_fractional_power_and_a_narrow_int_are_not_run_jitted():
    x = np.array([0.5, -1.0])
    got, message = _one_fallback(grad(rooted, lowering="numba"), x, 4.0)
    assert "a float ** a float exponent" in message
    assert_close(got, numerical_grad(rooted, (x, 4.0), 0))
    with pytest.raises(TypeError):                  # Python's complex, not numba's nan
        grad(rooted, lowering="numba")(x, -4.0)
    n = np.int32(2 ** 20)                           # n * n wraps in NumPy's 32 bits
    got, message = _one_fallback(grad(scaled, lowering="numba"), x, n * 0 + 3)
    assert "int32" in message
    assert_close(got, numerical_grad(scaled, (x, 3), 0))


@needs_numba
def test_the_value_has_the_plain_lowerings_type(simulated):
    _, args = simulated
    value, _ = _no_fallback(value_and_grad(simulate, (0, 1, 2), lowering="numba"), *args)
    plain, _ = value_and_grad(simulate, (0, 1, 2), lowering="plain")(*args)
    assert type(value) is type(plain) is np.float64


@pytest.mark.parametrize("x", [np.array([0.5, -1.0], np.float32), np.array(0.5)],
                         ids=["float32", "0-d"])
@needs_numba
def test_float32_and_0d_arrays_run_the_plain_lowering(x):
    got, message = _one_fallback(grad(scaled, lowering="numba"), x, 2)
    assert ("float32" if x.ndim else "0-d array") in message
    assert got.dtype == x.dtype and got.shape == x.shape
    want = numerical_grad(scaled, (x.astype(np.float64), 2), 0)
    assert_close(got.astype(np.float64), want, rtol=1e-5 if x.ndim else 1e-7)


@needs_numba
def test_a_rebound_global_and_a_changed_closure_array_are_seen(monkeypatch):
    x = np.array([0.5, -1.0])
    gradient = grad(scaled, lowering="numba")
    _no_fallback(gradient, x, 1)
    monkeypatch.setattr(sys.modules[__name__], "SCALE", 5.0)
    assert_close(_no_fallback(gradient, x, 1), numerical_grad(scaled, (x, 1), 0))
    c = np.array([1.0, 2.0])
    inner = closing_over(c)
    gradient = grad(inner, lowering="numba")
    _no_fallback(gradient, x)
    c[1] = -3.0                                     # in place, inside the tuple
    assert_close(_no_fallback(gradient, x), numerical_grad(inner, (x,), 0))


@needs_numba
def test_what_numba_raises_or_ignores_gets_pythons_answer():
    x = np.ones(3)
    with np.errstate(all="ignore"):
        got, message = _one_fallback(grad(pole, lowering="numba"), x)
        np.testing.assert_array_equal(got, grad(pole, lowering="plain")(x))   # inf, nan
    assert "raised ZeroDivisionError" in message
    got, message = _one_fallback(grad(logged, lowering="numba"), 2.0)
    assert "math module" in message
    assert_close(got, numerical_grad(logged, (2.0,), 0))
    with pytest.raises(ValueError, match="math domain error"):
        grad(logged, lowering="numba")(-1.0)


@needs_numba
def test_a_shape_the_helper_does_not_cover_raises_not_sums():
    """unbroadcast's overload assumes equal shapes of two arrays; two that differ raise
    Uncompiled (the caller then runs the plain lowering), never a wrong sum."""
    from runtime.numba_helpers import Uncompiled, njit_plain
    jitted = njit_plain(unbroadcast_call)
    assert_close(jitted(np.ones(3), np.zeros(3)), np.ones(3))
    with pytest.raises(Uncompiled):
        jitted(np.ones((2, 3)), np.zeros(3))


def test_without_numba_it_says_how_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "numba", None)     # import numba: ImportError
    with pytest.raises(ImportError, match=r"pip install thunkgrad\[numba\]"):
        grad(simulate, lowering="numba")


@pytest.mark.parametrize("options", [{"policy": "flat"}, {"has_aux": True},
                                     {"memory_limit": "1GB"}])
def test_options_it_does_not_take(options):
    with pytest.raises(ValueError, match="lowering='numba'"):
        grad(simulate, lowering="numba", **options)


def test_adjoint_source_asks_for_the_plain_lowering():
    with pytest.raises(ValueError, match="lowering='plain'"):
        adjoint_source(simulate, lowering="numba")
