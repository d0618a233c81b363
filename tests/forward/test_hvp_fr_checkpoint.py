"""hvp forward over reverse refuses, at compile time (hvp_forward.prepared), what it
used to refuse only once the code ran (so route "auto" could not fall back): a loop
marked `checkpointed` (the tangent of its pullback is reverse mode over the driver's
JVP, which does not compile) and a derivative function called inside (grad(f),
value_and_grad(f): no JVP declared). The refusal names the user's line; "auto" takes
reverse over forward instead: H v against central differences of grad (tests/fd.py)
and against route "reverse_over_forward". A helper holding the loop is refused by name
too (when its gradient is made, as the code runs)."""
import inspect

import numpy as np
import pytest

from runtime.checkpoint import checkpointed
from tests.fd import assert_close, numerical_jvp
from tests.gradcheck import rng
from transform import TransformError, grad, hvp, value_and_grad
from transform.hvp_forward import prepared
from transform.public.parameters import _full_signature


def heat(u, k):
    for t in checkpointed(range(6), snapshots=2):
        u = u + 0.1 * k * (np.roll(u, 1) - 2 * u + np.roll(u, -1)) + 0.05 * np.sin(u)
    return np.sum(u ** 2 * np.arange(len(u)))


def _energy(w):
    return np.sum(np.tanh(w) ** 2 + 0.1 * w ** 3)


_energy_grad = grad(_energy)
_energy_value_grad = value_and_grad(_energy)


def inner_step(w, lr):
    for _ in range(2):
        w = w - lr * _energy_grad(w)
    return np.sum(np.cos(w) * w)


def value_grad_inside(w, lr):
    value, g = _energy_value_grad(w)
    return value + lr * np.sum(g ** 2)


def _simulate(u, k):
    for _ in checkpointed(range(4), snapshots=2):
        u = u + 0.1 * k * np.sin(u)
    return u


def helper_loop(u, k):
    return np.sum(_simulate(u, k) ** 2)


CASES = [heat, inner_step, value_grad_inside]
LINES = {heat: "for t in checkpointed", inner_step: "_energy_grad(w)",
         value_grad_inside: "_energy_value_grad(w)"}


def _line_of(fn, text):
    lines, first = inspect.getsourcelines(fn)
    return first + next(k for k, line in enumerate(lines) if text in line)


@pytest.mark.parametrize("fn", CASES, ids=[f.__name__ for f in CASES])
def test_refused_before_running_at_the_users_line(fn):
    args = (rng("hvp fr checkpoint", fn.__name__).normal(size=4), 0.7)
    with pytest.raises(TransformError) as info:     # compile time: nothing has run
        prepared(fn, ("u" if fn is heat else "w",), args, None,
                 _full_signature(fn, args, {}))
    assert info.value.line == _line_of(fn, LINES[fn])
    assert info.value.filename == __file__
    assert "not supported by this route" in info.value.message


@pytest.mark.parametrize("fn", CASES, ids=[f.__name__ for f in CASES])
def test_auto_falls_back(fn):
    r = rng("hvp fr checkpoint auto", fn.__name__)
    args = (1.0 + 0.5 * r.normal(size=4), 0.7)
    for k, v in ((0, r.normal(size=4)), (1, 0.3)):
        got = hvp(fn, args, (v,), wrt=k, route="auto")
        assert_close(got, numerical_jvp(grad(fn, k), args, k, v), rtol=1e-5, atol=1e-6)
        want = hvp(fn, args, (v,), wrt=k, route="reverse_over_forward")
        assert_close(got, want, rtol=1e-12, atol=1e-14)


def test_a_helpers_checkpointed_loop_is_named():
    args = (rng("hvp fr checkpoint helper").normal(size=3), 0.7)
    with pytest.raises(TransformError) as info:
        hvp(helper_loop, args, (np.ones(3),), route="forward_over_reverse")
    assert info.value.line == _line_of(_simulate, "for _ in checkpointed")
    assert "loop marked `checkpointed`" in info.value.message
