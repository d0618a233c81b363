"""runtime/callees.py: the compiler's vjp handed to rules that differentiate a function
value (odeint's func), and the refusal when the compiler was never imported."""
import numpy as np
import pytest

from runtime import callees
from tests.fd import assert_close, numerical_vjp
import transform.api  # noqa: F401  (provides the vjp to runtime.callees)


def cubic(x, c):
    return c * x ** 3


def test_function_vjp_differentiates_through_the_provided_compiler():
    x, c, g = np.array([0.5, -1.5]), 2.0, np.array([1.0, 3.0])
    value, pullback = callees.function_vjp(cubic, (0,), x, c)
    assert_close(value, cubic(x, c))
    got = pullback(g)
    got = got[0] if isinstance(got, tuple) else got
    assert_close(got, numerical_vjp(lambda x: cubic(x, c), [x], 0, g))


def test_without_the_compiler_it_is_refused(monkeypatch):
    monkeypatch.setattr(callees, "_VJP", [])
    with pytest.raises(TypeError, match="import transform"):
        callees.function_vjp(cubic, (0,), np.ones(2), 1.0)
