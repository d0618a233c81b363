"""Chunks over a list, tuple or array (each chunk a slice, its cotangent split back into
the items'), chunk="auto" (k chosen when the loop starts, runtime/checkpoint_budget.py
auto_chunk) and the lazy chunk sequence: gradients equal the unmarked loop's (1e-12)
and finite differences; the report says the k chosen."""
import math

import numpy as np
import pytest

from runtime.checkpoint import Chunks
from runtime.checkpoint_budget import CHUNK_FLOOR
from tests.fd import numerical_grad
from tests.gradcheck import POLICIES
from transform import checkpoint_stats, checkpointed, grad


def _rnn_ck(W, xs, h):
    for x in checkpointed(xs, snapshots=2, chunk=3):
        h = np.tanh(W @ h + x)
    return np.sum(h ** 2)


def _rnn(W, xs, h):
    for x in xs:
        h = np.tanh(W @ h + x)
    return np.sum(h ** 2)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("kind", [np.array, list, tuple])
@pytest.mark.parametrize("n", [1, 3, 7])
def test_chunks_over_items(policy, kind, n):
    rng = np.random.default_rng(n)
    W, xs, h = rng.normal(size=(3, 3)) / 2, kind(rng.normal(size=(n, 3))), np.zeros(3)
    with checkpoint_stats() as stats:
        got = grad(_rnn_ck, (0, 1), policy=policy)(W, xs, h)
    assert stats.steps == math.ceil(n / 3)
    want = grad(_rnn, (0, 1), policy=policy)(W, xs, h)
    assert type(got[1]) is type(want[1])
    for a, b, k in zip(got, want, (0, 1)):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-12, atol=1e-300)
        fd = numerical_grad(_rnn, (W, np.array(xs), h), k)
        np.testing.assert_allclose(np.asarray(a), fd, rtol=1e-6, atol=1e-9)


def _scalar_auto(x, w, n):
    for t in checkpointed(range(n), snapshots=3, chunk="auto"):
        x = np.tanh(w * x) + 0.001 * t
    return x


def _scalar(x, w, n):
    for t in range(n):
        x = np.tanh(w * x) + 0.001 * t
    return x


@pytest.mark.parametrize("n", [0, 1, 5, 3000])
def test_auto_chunk(n):
    with checkpoint_stats() as stats:
        got = grad(_scalar_auto, (0, 1))(0.3, 0.9, n)
    want = grad(_scalar, (0, 1))(0.3, 0.9, n)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-300)
    if n > 1:
        [r] = stats.reports
        per = r["step_tape"]
        assert r["chunk"] == min(n, max(3 * 32, CHUNK_FLOOR) // per) >= 1
        assert stats.steps == math.ceil(n / r["chunk"]) and "chunks of" in stats.report()


def test_auto_chunk_fd():
    g = grad(_scalar_auto, 1)(0.3, 0.9, 40)
    np.testing.assert_allclose(g, numerical_grad(_scalar, (0.3, 0.9, 40), 1), rtol=1e-6)


def test_chunks_are_lazy_slices():
    c = Chunks(range(10**12), 1000)
    assert len(c) == 10**9 and c[3] == range(3000, 4000) and c[-1] == range(10**12 - 1000, 10**12)
    assert list(Chunks([1, 2, 3, 4, 5], 2)) == [[1, 2], [3, 4], [5]]
    with pytest.raises(IndexError):
        c[10**9]
