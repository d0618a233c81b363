"""Issue 18: first calls from many threads at once. Each trial makes fresh functions
(nothing compiled yet), then 16 threads released together call grad on them."""
import sys
import threading

import numpy as np
import pytest

import transform
from runtime import thunks
from transform import Thunk, thunk_stats, unthunk
from transform.public import cache

THREADS, TRIALS = 16, 50


@pytest.fixture(autouse=True)
def often_switching():
    """Threads switch every microsecond: races show in a few trials, not thousands."""
    saved = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    yield
    sys.setswitchinterval(saved)


def _race(work, threads=THREADS):
    """Run work(k) in `threads` threads released at once; the exceptions they raised."""
    barrier, errors = threading.Barrier(threads), []

    def run(k):
        try:
            barrier.wait()
            work(k)
        except BaseException as exc:          # noqa: B036 - every failure counts
            errors.append(exc)
    pool = [threading.Thread(target=run, args=(k,)) for k in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    return errors


def _fresh():
    def loss(x):
        return np.sum(np.tanh(x) ** 2)
    return loss


def _expected(x):
    t = np.tanh(x)
    return 2 * t * (1 - t ** 2)


def test_first_calls_with_different_shapes_from_16_threads():
    for _ in range(TRIALS):
        loss = _fresh()

        def work(k):
            x = np.linspace(-1.0, 1.0, k + 1)
            np.testing.assert_allclose(transform.grad(loss)(x), _expected(x), rtol=1e-12)
        assert _race(work) == []
        specialised = [k for k in cache.rules_of(loss) if k[4] is not None]
        assert len(specialised) <= cache.MAX_SPECIALISATIONS


def test_specialisation_limit_is_reached_not_exceeded():
    loss = _fresh()
    assert _race(lambda k: transform.grad(loss)(np.ones(k + 1))) == []
    specialised = [k for k in cache.rules_of(loss) if k[4] is not None]
    assert len(specialised) == cache.MAX_SPECIALISATIONS


def test_one_grad_object_first_called_from_16_threads():
    for _ in range(TRIALS):
        gradient = transform.grad(_fresh())

        def work(k):
            for _ in range(3):
                x = np.full(3, 0.1 * k)
                np.testing.assert_allclose(gradient(x), _expected(x), rtol=1e-12)
        assert _race(work) == []


def test_value_and_grad_and_vjp_from_16_threads():
    loss = _fresh()

    def work(k):
        x = np.full(2, 0.05 * k)
        value, g = transform.value_and_grad(loss)(x)
        out, pullback = transform.vjp(loss, x)
        np.testing.assert_allclose(g, _expected(x), rtol=1e-12)
        np.testing.assert_allclose(pullback(1.0)[0], g, rtol=1e-12)
        assert value == out
    assert _race(work) == []


def test_published_rules_are_complete():
    """A rule is in the cache only once built: every published entry has its code."""
    loss = _fresh()
    seen = []

    def work(k):
        transform.grad(loss)(np.ones(k % 4 + 1))
        seen.extend(cache.rules_of(loss).values())
    assert _race(work) == []
    assert seen and all(callable(rule.rrule) and rule.guards is not None for rule in seen)


def test_thunk_stats_count_each_threads_own_thunks():
    counts, halfway = {}, threading.Barrier(THREADS)

    def work(k):
        with thunk_stats() as stats:
            for n in range(200):
                if n == 100:
                    halfway.wait()        # every block is open here at once
                unthunk(Thunk(lambda: 1.0))
        counts[k] = (stats.created, stats.forced)
    assert _race(work) == []
    assert counts == {k: (200, 200) for k in range(THREADS)}


def test_thunk_stats_stop_counting_after_every_block_exits():
    def work(k):
        with thunk_stats():
            Thunk(lambda: 1.0)
    assert _race(work) == []
    with thunk_stats() as probe:
        pass
    Thunk(lambda: 1.0)
    assert probe.created == 0
    assert thunks._STATS.active == 0          # no block open: thunks count nothing


def test_thunks_outside_a_block_are_not_counted_by_another_threads_block():
    inside, outside = threading.Event(), threading.Event()
    result = {}

    def counting():
        with thunk_stats() as stats:
            inside.set()
            outside.wait(10)
        result["stats"] = stats

    t = threading.Thread(target=counting)
    t.start()
    inside.wait(10)
    for _ in range(50):
        unthunk(Thunk(lambda: 1.0))
    outside.set()
    t.join()
    assert result["stats"].created == 0 and result["stats"].forced == 0


@pytest.mark.parametrize("policy", ["loop", "flat"])
def test_threads_compiling_mutually_recursive_callees(policy):
    """Compiling a callee never waits for another thread: no deadlock."""
    from tests.reliability import recursive_funcs as rf
    errors = _race(lambda k: transform.grad(rf.even_sum if k % 2 else rf.odd_sum,
                                            policy=policy)(np.ones(3), 3), threads=8)
    assert errors == []


def test_helper_write_refusals_are_the_same_in_every_thread():
    """Alias summaries of a helper being read in one thread are not "writes nothing"
    in another: every thread's compile of the caller is refused."""
    from tests.reliability.helper_factories import appending_pair
    for _ in range(10):
        caller = appending_pair()
        errors = _race(lambda k: transform.grad(caller)(np.ones(k % 3 + 1)), threads=8)
        assert len(errors) == 8
        assert all(isinstance(e, transform.TransformError) for e in errors), errors


def test_helper_summaries_under_threads_give_the_sequential_gradient():
    from tests.reliability.helper_factories import returning_pair
    for _ in range(10):
        caller = returning_pair()

        def work(k):
            x = np.linspace(0.1, 1.0, k % 3 + 1)
            np.testing.assert_allclose(transform.grad(caller)(x), 6.0 * x, rtol=1e-12)
        assert _race(work, threads=8) == []
