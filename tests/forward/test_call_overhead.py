"""What jvp and hvp keep per function between calls (public/parameters.py `_known`:
parameter lists, defaults, the defaults filling a short call) is read again once the
function's code, defaults or keyword defaults are other objects. Each tangent here
against central differences (tests/fd.py), after each rebinding."""
import inspect

import numpy as np
import pytest

from tests.fd import assert_close, numerical_jvp
from transform import grad, hvp, jvp
from transform.analysis.shapes import signature_of
from transform.public.parameters import _full_signature, _params


def _expected_jvp(fn, args, tangents):
    return sum(numerical_jvp(fn, args, k, t) for k, t in enumerate(tangents))


def test_a_rebound_default_and_code_are_seen():
    def local(x, c=2.0):
        return np.sum(np.sin(c * x))

    def other(x, y, c):
        return np.sum(x ** 3 * y) * c
    x, t = np.array([0.3, -0.2, 0.5]), np.array([1.0, 0.5, -2.0])
    first = jvp(local, (x,), (t,))[1]
    assert_close(first, _expected_jvp(local, (x,), (t,)))
    local.__defaults__ = (0.5,)
    assert_close(jvp(local, (x,), (t,))[1], _expected_jvp(local, (x,), (t,)))
    assert not np.allclose(jvp(local, (x,), (t,))[1], first)
    local.__code__ = other.__code__           # three parameters now, c's default kept
    assert _params(local) == ["x", "y", "c"]
    y, u = np.array([1.5, 0.7, -0.4]), np.array([0.2, -1.0, 0.3])
    out, out_dot = jvp(local, (x, y), (t, u))  # wrt: both arguments given
    assert_close(out, np.sum(x ** 3 * y) * 0.5)
    assert_close(out_dot, _expected_jvp(local, (x, y), (t, u)))


def test_a_keyword_default_changed_in_place_is_seen_by_hvp():
    def local(x, *, k=1.0):
        return np.sum(np.tanh(x) ** 2) * k
    x, t = np.array([0.3, -0.2]), np.array([1.0, 0.5])
    first = hvp(local, (x,), (t,))
    local.__kwdefaults__["k"] = 3.0
    assert_close(hvp(local, (x,), (t,)), 3.0 * first)
    assert_close(hvp(local, (x,), (t,)), numerical_jvp(grad(local), (x,), 0, t))


def positional(a, b=2.0, /, c=3.0):
    return a


def keyword_only(a, b=2.0, *, c=3.0):
    return a


def collects(a, *rest):
    return a


@pytest.mark.parametrize("fn", [positional, keyword_only, collects])
@pytest.mark.parametrize("count", [0, 1, 2, 3, 4])
def test_full_signature_as_inspect_binds_it(fn, count):
    """The all-positional shortcut gives what binding the call does (None if it fails)."""
    args = tuple(np.ones(k + 1) for k in range(count))
    try:
        bound = inspect.signature(fn).bind(*args)
    except TypeError:
        assert _full_signature(fn, args, {}) is None
        return
    bound.apply_defaults()
    values = [bound.arguments[name] for name, p in inspect.signature(fn).parameters.items()
              if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    assert _full_signature(fn, args, {}) == signature_of(values)
