"""Session 34 (chunk): grad(..., memory_limit=...) marks the outermost `while` loops and
`for` loops with `break` as online checkpointed loops (transform/frontend/
checkpointed_auto.py; runtime/checkpoint_online_budget.py): taped while the steps'
tapes fit in the limit, else run again from the input by the online schedule. Gradients
against the unmarked function (bitwise where taped) and central differences; the peak
by tracemalloc (a behaviour, not a timing); what `--explain` and the report say."""
import contextlib
import tracemalloc

import numpy as np
import pytest

from runtime import online
from tests.checkpoint.forced import forced
from tests.fd import numerical_grad
from transform import checkpoint_stats, checkpointed, grad
from transform.api import adjoint_source


def settle(u, kappa, target):
    while np.sum(u * u) > target:
        u = u + 0.1 * kappa * (np.roll(u, 1) - 2 * u + np.roll(u, -1)) - 0.01 * u
    return np.sum(u ** 3)


def crossing(x, w, n):
    for t in range(n):
        x = np.tanh(w * x) + 0.1 * t
        if x > 0.9:
            break
    return x * w


def skipping(x, n):
    k = 0
    while k < n:
        k = k + 1
        if k % 2 == 0:
            continue
        x = np.sin(x) + 0.5
    return x * k


def merged(x, n):                       # (its step alone fails: runs as written)
    params = {"w": x, "step": 0.0}
    k = 0
    while k < n:
        k = k + 1
        if k == 2:
            continue
        params |= {"w": params["w"] * 0.5 + np.tanh(x), "step": params["step"] + 1.0}
    return np.sum(params["w"] ** 2) * params["step"]


def with_else(x, n):
    k = 0
    while k < n:
        x = x * 1.5
        k = k + 1
    else:
        x = x + 1.0
    return x


CASES = [(settle, (np.linspace(0.0, 1.0, 20), 1.0, 2.0)), (crossing, (0.3, 0.7, 25)),
         (skipping, (0.4, 9))]


def _grads(fn, args, limit):
    with checkpoint_stats() as stats:
        got = grad(fn, 0, memory_limit=limit)(*args)
    return got, stats


@pytest.mark.parametrize("fn, args", CASES, ids=[c[0].__name__ for c in CASES])
def test_taped_when_the_steps_tapes_fit(fn, args):
    got, stats = _grads(fn, args, "1GB")
    [r] = stats.reports
    assert stats.loops == 0 and r["decision"].startswith("taped (the steps' tapes fitted")
    np.testing.assert_array_equal(got, grad(fn, 0)(*args))


@pytest.mark.parametrize("fn, args", CASES, ids=[c[0].__name__ for c in CASES])
def test_checkpointed_past_the_limit(fn, args):
    limit = {settle: 12_000, crossing: 2_500, skipping: 2_800}[fn]  # (~3 snapshots)
    got, stats = _grads(fn, args, limit)
    [r] = stats.reports
    assert stats.loops == 1 and r["schedule"] == "online", r
    s = (limit - 2 * r["step_tape"] - 2 * r["carry"]) // (3 * r["carry"])
    assert r["snapshots"] == s >= 1 and stats.recomputed == online.recomputations(r["steps"], s)
    assert "(online schedule)" in stats.report()
    np.testing.assert_allclose(got, grad(fn, 0)(*args), rtol=1e-14, atol=0)
    np.testing.assert_allclose(got, numerical_grad(fn, args, 0), rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("fn, args", CASES, ids=[c[0].__name__ for c in CASES])
def test_forced_to_two_snapshots(fn, args):
    with forced(2):
        got, stats = _grads(fn, args, 1)
    assert stats.loops == 1 and stats.peak_snapshots == 2
    np.testing.assert_allclose(got, grad(fn, 0)(*args), rtol=1e-14, atol=0)


def test_a_while_loop_whose_step_fails_alone_runs_as_written():
    x = np.array([0.3, 0.4])
    for n in (0, 1, 5):
        got, stats = _grads(merged, (x, n), 1)
        np.testing.assert_allclose(got, grad(merged, 0)(x, n), rtol=1e-14)
        assert stats.loops == 0
    [r] = stats.reports
    assert r["decision"].startswith("taped as written (its step alone raised TypeError")


def test_explain_says_what_happens_to_while_loops():
    text = adjoint_source(settle, 0, explain=True, memory_limit="1MB")
    assert "online schedule: its trip count is not known" in text
    assert "tapes the loop while (steps run + 3) * e + 2c <= limit" in text
    text = adjoint_source(with_else, 0, explain=True, memory_limit="1MB")
    assert "taped: the checkpointed loop's checks refuse it (a loop `else`" in text


def test_peak_of_a_while_loop_under_a_limit():
    u, kappa = np.linspace(0.0, 1.0, 1000), np.ones(1000)
    args = (u, kappa, 0.2)
    peaks = {}
    for limit in (None, 2_000_000):
        g = grad(settle, 0, memory_limit=limit)
        g(u, kappa, 330.0)                          # (compiled outside the measurement)
        tracemalloc.start()
        try:
            with checkpoint_stats() as stats:
                got = g(*args)
            peaks[limit] = tracemalloc.get_traced_memory()[1], got, stats
        finally:
            tracemalloc.stop()
    (taped, want, _), (peak, got, stats) = peaks[None], peaks[2_000_000]
    assert taped > 6e6 and peak <= 2_000_000, (taped, peak)
    assert stats.loops == 1 and stats.steps > 200
    np.testing.assert_allclose(got, want, rtol=1e-13, atol=0)


def in_a_with_block(x):
    total = 0.0
    with contextlib.nullcontext():
        for i in checkpointed(range(4), snapshots=2):
            total = total + x[i] * x[i]
    return total


def test_a_checkpointed_loop_inside_a_with_block():
    # (an internal compiler error before session 34: a `with` item has no line)
    np.testing.assert_array_equal(grad(in_a_with_block)(np.arange(4.0)), 2 * np.arange(4.0))
