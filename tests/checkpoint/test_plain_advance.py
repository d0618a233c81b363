"""The driver advances by the step itself (no rule, no tape) where the compiler found
that the body writes into nothing and calls library functions or helpers whose source
writes into nothing (tests/checkpoint/test_helpers_written.py); elsewhere by the
step's rule (a plain step would write into the snapshots it is given)."""
import numpy as np
import pytest

import runtime.checkpoint_rule as rule_module
from runtime import revolve
from runtime.checkpoint import STEPS
from tests.checkpoint import cases
from tests.gradcheck import POLICIES, check_grad
from transform import checkpointed, grad


def _step(name):
    return next(STEPS[k] for k in sorted(STEPS) if f".{name}:" in k)


def _aug(x, n, s):
    for t in checkpointed(range(n), snapshots=s):
        x += np.sin(x)
    return x


def _method(u, n, s):
    for t in checkpointed(range(n), snapshots=s):
        u = np.sin(u).clip(-0.5, 0.5)
    return np.sum(u)


@pytest.mark.parametrize("name, args, plain", [
    ("scalar_ck", (0.3, 0.9, 5, 2), True), ("rows_ck", (np.ones((5, 3)), np.eye(3), 2), True),
    ("heat_ck", (np.ones(4), 1.0, 0.1, 5, 2), True),   # (_lap: a helper writing nothing)
    ("calls_ck", (0.3, 0.9, 5, 2), True), ("in_place_ck", (np.ones(4), 0.5, 5, 2), False),
    ("_aug", (0.3, 5, 2), False), ("_method", (np.ones(3), 5, 2), False)])
def test_which_steps_advance_plainly(name, args, plain):
    fn = getattr(cases, name, None) or globals()[name]
    grad(fn, 0)(*args)
    assert _step(name).thunkgrad_plain_advance is plain


def _counting(monkeypatch):
    calls = []
    real = rule_module.loop_body_rule

    def counted(fn, wrt, dense=()):
        inner = real(fn, wrt, dense)
        return lambda *a: (calls.append(1), inner(*a))[1]
    monkeypatch.setattr(rule_module, "loop_body_rule", counted)
    return calls


@pytest.mark.parametrize("policy", POLICIES)
def test_a_plain_step_calls_the_rule_only_to_reverse(monkeypatch, policy):
    calls = _counting(monkeypatch)
    x, w, n = 0.3, 0.9, 12
    got = grad(cases.scalar_ck, (0, 1), policy=policy)(x, w, n, 3)
    assert len(calls) == n                                  # one per reversed step
    assert got == grad(cases.scalar, (0, 1), policy=policy)(x, w, n)
    check_grad(cases.scalar_ck, [x, w, n, 3], wrt=(0, 1), policy=policy)


def test_a_writing_step_advances_by_its_rule(monkeypatch):
    calls = _counting(monkeypatch)
    u = np.linspace(0.1, 0.9, 5)
    got = grad(cases.in_place_ck, 0)(u, 0.5, 12, 3)
    assert len(calls) > 12                                  # advances too
    assert np.array_equal(got, grad(cases.in_place, 0)(u, 0.5, 12))



def _raw_step(x, w, t):
    return (np.tanh(w * x) + 0.1 * t,)


def test_a_step_registered_without_the_compilers_word_advances_by_its_rule(monkeypatch):
    from runtime.checkpoint import register_step
    calls = _counting(monkeypatch)
    key = register_step("tests.checkpoint._raw_step", _raw_step)
    out, pullback = rule_module.run_checkpointed_rule(key, (0.3,), (0.9,), range(6), 2)
    assert len(calls) == 6                      # the forward sweep's advances, by the rule
    _, (g_x,), (g_w,), _, _, _ = pullback((1.0,))
    assert len(calls) == 6 + revolve.recomputations(6, 2) + 6    # recomputed, reversed
    x = 0.3
    for t in range(6):
        x = np.tanh(0.9 * x) + 0.1 * t
    assert out == (x,) and g_x != 0.0 and g_w != 0.0
