"""grad(..., memory_limit=...): the outermost loops checkpointed to fit (issue 21).
Peak memory by tracemalloc (a behaviour, not a timing); gradients against the
unmarked loop and central finite differences under every policy."""
import random
import tracemalloc
from types import SimpleNamespace

import numpy as np
import pytest

from runtime.checkpoint_budget import measured_call, nbytes, snapshots_for
from runtime.checkpoint_rule import _item_cotangent
from tests.checkpoint import cases
from tests.fd import numerical_grad
from tests.gradcheck import POLICIES
from transform import checkpoint_stats, differentiable, grad, value_and_grad, vjp
from transform.api import adjoint_source
from transform.public.memory_limit import limited, parse_memory_limit


def _peak(g, *args):
    g(*args[:3], 3)                               # compiled outside the measurement
    tracemalloc.start()
    try:
        with checkpoint_stats() as stats:
            out = g(*args)
        return tracemalloc.get_traced_memory()[1], stats, out
    finally:
        tracemalloc.stop()


def test_peak_under_three_limits_and_snapshots_fall_with_the_limit():
    u, kappa = np.linspace(0.0, 1.0, 2000), np.ones(2000)
    args = (u, kappa, 0.1, 1000)
    taped, _, ref = _peak(grad(cases.heat, 0), *args)
    assert taped > 25e6                           # the tape a limit has to cut
    chosen = []
    for limit in (20e6, 10e6, 2e6):
        peak, stats, got = _peak(grad(cases.heat, 0, memory_limit=int(limit)), *args)
        assert peak <= limit, (limit, peak)
        assert stats.loops == 1 and stats.recomputed > 0
        np.testing.assert_allclose(got, ref, rtol=1e-12, atol=0)
        chosen.append(stats.peak_snapshots)
    assert chosen[0] > chosen[1] > chosen[2] >= 1


def test_a_limit_above_the_tape_keeps_the_loop_taped():
    u, kappa = np.linspace(0.0, 1.0, 50), np.ones(50)
    with checkpoint_stats() as stats:
        got = grad(cases.heat, 0, memory_limit="1GB")(u, kappa, 0.1, 20)
    assert stats.loops == 0 and stats.recomputed == 0
    np.testing.assert_allclose(got, grad(cases.heat, 0)(u, kappa, 0.1, 20), rtol=1e-12)


def _loop(x, w, n):
    h = x * 1.0
    for t in range(n):
        h = np.tanh(w * h + 0.1 * t)
    return np.sum(h ** 2)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("limit", [2500, 5000, 10**9])
def test_gradients_match_fd_and_the_unmarked_loop(policy, limit):
    x, w = np.linspace(-0.5, 0.7, 4), np.linspace(0.3, -0.9, 4)
    with checkpoint_stats() as stats:
        g = grad(_loop, (0, 1), policy=policy, memory_limit=limit)(x, w, 12)
    assert stats.loops == (limit < 10**9)        # (one step's tape: ~600 bytes)
    ref = grad(_loop, (0, 1), policy=policy)(x, w, 12)
    for a, b, k in zip(g, ref, (0, 1)):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-14)
        fd = numerical_grad(_loop, (x, w, 12), k)
        np.testing.assert_allclose(a, fd, rtol=1e-6, atol=1e-8)


def test_value_and_grad_and_vjp_take_it():
    x, w = np.linspace(0.1, 0.4, 4), np.full(4, 1.3)
    ref = grad(_loop, 0)(x, w, 30)
    with checkpoint_stats() as stats:
        v, g = value_and_grad(_loop, 0, memory_limit=2500)(x, w, 30)
        out, pb = vjp(_loop, x, w, 30, wrt=0, memory_limit=2500)
        (g2,) = pb(1.0)
    assert stats.loops == 2 and v == out == _loop(x, w, 30)
    assert not tracemalloc.is_tracing()           # (started for one call, stopped)
    np.testing.assert_allclose(g, ref, rtol=1e-12)
    np.testing.assert_allclose(g2, ref, rtol=1e-12)


def _refused(x, n):
    for t in range(n):
        if t > 3:
            break
        x = x * 1.5
    else:                               # (a loop `else`: refused by the marker's checks)
        x = x * 2.0
    return np.sum(x)


def test_a_refused_loop_stays_taped_without_an_error():
    x = np.ones(3)
    with checkpoint_stats() as stats:
        g = grad(_refused, 0, memory_limit=10)(x, 8)
    assert stats.loops == 0
    np.testing.assert_array_equal(g, grad(_refused, 0)(x, 8))


def test_too_small_a_limit_says_so():
    with pytest.raises(MemoryError, match="memory_limit"):
        grad(cases.heat, 0, memory_limit=10)(np.ones(100), np.ones(100), 0.1, 50)


@pytest.mark.parametrize("text, value", [("2GB", 2 * 10**9), ("500MB", 5 * 10**8),
                                         ("1.5GiB", int(1.5 * 2**30)), (" 7 kb ", 7000),
                                         (123, 123), (None, None)])
def test_parsing(text, value):
    assert parse_memory_limit(text) == value


@pytest.mark.parametrize("bad", ["2XB", "", "-1GB", "0", 0, -5, True, 1.5, "GB"])
def test_parsing_errors(bad):
    with pytest.raises(ValueError, match="memory_limit"):
        grad(_loop, 0, memory_limit=bad)


def test_without_a_limit_nothing_changes():
    assert limited(_loop, None, None) == (_loop, None)
    assert "run_checkpointed" not in adjoint_source(_loop)
    x, w = np.linspace(0.1, 0.4, 4), np.full(4, 1.3)
    with checkpoint_stats() as stats:
        grad(_loop, 0)(x, w, 12)
    assert stats.loops == 0


def _over_keys(x, d):
    for k in d:
        x = x * d[k]
    return np.sum(x)


def test_a_loop_over_a_dict_is_taped():
    x, d = np.linspace(0.1, 0.4, 4), {"a": 1.5, "b": 0.5, "c": 2.0}
    with checkpoint_stats() as stats:
        g = grad(_over_keys, 0, memory_limit=1)(x, d)   # (taped: any limit)
    assert stats.loops == 0
    np.testing.assert_allclose(g, grad(_over_keys, 0)(x, d), rtol=1e-12)


def _draw(rng):
    return rng.normal()


def _noisy(x, rng, n):
    for t in range(n):
        x = np.sin(x) + 0.01 * _draw(rng)
    return np.sum(x)


def test_a_loop_reading_a_generator_is_taped_and_draws_once():
    x = np.linspace(0.1, 0.4, 4)
    ref = grad(_noisy, 0)(x, np.random.default_rng(3), 40)
    with checkpoint_stats() as stats:
        g = grad(_noisy, 0, memory_limit=1)(x, np.random.default_rng(3), 40)
    assert stats.loops == 0
    np.testing.assert_array_equal(g, ref)


def _global_noise(x, n):
    for t in range(n):
        x = np.sin(x) * (1.0 + 0.01 * t) + 0.01 * _global_draw()
    return np.sum(x)


def _global_draw():
    return np.random.normal() + random.random()


def _seeded():
    np.random.seed(5)
    random.seed(5)


def test_a_loop_drawing_from_np_random_or_random_is_taped_with_the_plain_draws():
    x = np.linspace(0.1, 0.4, 4)
    _seeded()
    ref = grad(_global_noise, 0)(x, 40)
    after = (np.random.normal(), random.random())
    _seeded()
    with checkpoint_stats() as stats:
        g = grad(_global_noise, 0, memory_limit=1)(x, 40)
    assert stats.loops == 0 and (np.random.normal(), random.random()) == after
    np.testing.assert_array_equal(g, ref)


def test_the_snapshot_count_formula():
    assert snapshots_for(1000, 100, 10, 10) is None           # n * e == limit: taped
    assert snapshots_for(1000, 101, 10, 10) == 32             # (1000 - 40) // 30
    assert snapshots_for(1000, 200, 10, 20) == 15             # (1000 - 60) // 60
    assert snapshots_for(10**6, 20, 10**5, 8) == 20           # at most one per step
    assert snapshots_for(1000, 10**4, 10, 0) == 326           # no carry: (1000 - 20) // 3
    assert snapshots_for(120, 100, 10, 20) == 1               # (120 - 60) // 60: just fits
    with pytest.raises(MemoryError, match="too small"):
        snapshots_for(100, 100, 30, 10)                        # (100 - 80) // 30 == 0


def test_item_cotangents_of_an_unsized_iterable_are_refused():
    with pytest.raises(TypeError, match="memory_limit"):
        _item_cotangent(SimpleNamespace(items=[1.5], item_cots={0: 1.0}), {1.5})


def test_nbytes_counts_arrays_with_their_objects_and_numbers():
    value = (np.zeros(3), 1.0, [np.zeros(2)], {"a": np.zeros(1)})
    assert nbytes(value) == (24 + 112) + 32 + (16 + 112) + (8 + 112)


def test_the_measured_tape_is_what_the_step_keeps_not_its_temporaries():
    kept = []

    def call(carry, i):
        np.ones(10**6).sum()                      # 8 MB, dropped
        kept.append(np.ones(1000))                # 8 kB, kept
        return carry, None
    loop = SimpleNamespace(call=call)
    tracemalloc.start()
    try:
        held = np.ones(10**5)                     # 800 kB traced before the call
        _, _, tape = measured_call(loop, (held,))
    finally:
        tracemalloc.stop()
    assert len(kept) == 2 and 8000 <= tape < 100_000


def test_a_one_step_loop():
    u, kappa = np.linspace(0.0, 1.0, 50), np.ones(50)
    got = grad(cases.heat, 0, memory_limit="1GB")(u, kappa, 0.1, 1)
    np.testing.assert_allclose(got, grad(cases.heat, 0)(u, kappa, 0.1, 1), rtol=1e-12)


class _Model:
    def __init__(self, w):
        self.w = w

    def loss(self, x, n):
        return _loop(x, self.w, n)


def test_a_differentiable_wrapper_and_a_bound_method():
    x, w = np.linspace(0.1, 0.4, 4), np.full(4, 1.3)
    wrapped = differentiable(_loop, policy="eager")
    with checkpoint_stats() as stats:
        g = grad(wrapped, 0, memory_limit=2500)(x, w, 30)
        g2 = grad(_Model(w).loss, 0, memory_limit=2500)(x, 30)
    assert stats.loops == 1                       # (the method's loop is in _loop: taped)
    ref = grad(_loop, 0)(x, w, 30)
    np.testing.assert_allclose(g, ref, rtol=1e-12)
    np.testing.assert_allclose(g2, ref, rtol=1e-12)
