"""checkpointed(range(n), snapshots=s, chunk=k): each checkpointed step runs k iterations
(the last chunk shorter). The gradient equals the plain loop's (1e-12 relative: the
invariants' cotangents are summed per chunk first) and finite differences under every
policy; the driver counts chunks as steps; chunk= is a literal >= 1 or "auto" (lists,
tuples, arrays, auto: test_chunk_items.py)."""
import math

import numpy as np
import pytest

from runtime import revolve
from tests.checkpoint import cases
from tests.gradcheck import POLICIES, check_grad, rng
from transform import TransformError, checkpoint_stats, checkpointed, grad


def scalar_ck(x, w, n, s):
    total = 0
    for t in checkpointed(range(n), snapshots=s, chunk=3):
        x = np.tanh(w * x) + 0.1 * t
        total = total + x * x
    return total + x


def heat_ck(u, kappa, dt, n, s):
    for t in checkpointed(range(n), snapshots=s, chunk=4):
        u = u + dt * kappa * cases._lap(u)
    return np.sum(u ** 2)


def in_place_ck(u, c, n, s):
    u = u.copy()
    last = 0.0
    for t in checkpointed(range(n), snapshots=s, chunk=2):
        u[1:] = u[1:] * c + np.sin(u[:-1])
        last = u[0] * t
    return np.sum(u) + last


def _same(f_ck, f, args, s, wrt, policy, k):
    with checkpoint_stats() as stats:
        got = grad(f_ck, wrt, policy=policy)(*args, s)
    want = grad(f, wrt, policy=policy)(*args)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-12, atol=1e-300)
    check_grad(f_ck, list(args) + [s], wrt=wrt, policy=policy)
    chunks = math.ceil(args[-1] / k)
    assert stats.steps == chunks and stats.reversed == chunks
    assert stats.recomputed == revolve.recomputations(chunks, s)
    return got


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("n", [0, 1, 3, 4, 7, 20])
@pytest.mark.parametrize("s", [1, 2, 4])
def test_scalar_chunks(policy, n, s):
    _same(scalar_ck, cases.scalar, (0.3, 0.9, n), s, (0, 1), policy, 3)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("n", [4, 9])
def test_array_chunks_through_a_helper(policy, n):
    r = rng("checkpoint.chunks", n)
    args = (r.normal(size=6), r.uniform(0.5, 1.0, size=6), 0.2, n)
    _same(heat_ck, cases.heat, args, 2, (0, 1, 2), policy, 4)


@pytest.mark.parametrize("policy", POLICIES)
def test_chunks_writing_in_place(policy):
    u = np.linspace(0.1, 0.9, 5)
    got = _same(in_place_ck, cases.in_place, (u, 0.5, 7), 2, (0, 1), policy, 2)
    assert np.array_equal(u, np.linspace(0.1, 0.9, 5)) and np.all(np.isfinite(got[0]))


def test_the_primal_runs_the_chunks():
    assert scalar_ck(0.3, 0.9, 7, 2) == cases.scalar(0.3, 0.9, 7)
    with checkpoint_stats() as stats:
        assert grad(_only_w, 0)(0.5, 0.3, 7, 2) == 2.0           # loop not differentiated
    assert stats.loops == 0


def _only_w(w, x, n, s):
    total = 0.0
    for t in checkpointed(range(n), snapshots=s, chunk=3):
        total = total + x * t
    return 2.0 * w + 0.0 * total


def _list_chunks(xs, w, s):
    h = 0.0
    for x in checkpointed(xs, snapshots=s, chunk=2):
        h = np.tanh(w * h + x)
    return h


def test_chunks_need_a_length_when_it_runs():
    with pytest.raises(TypeError, match="needs a range, list, tuple or array"):
        grad(_list_chunks, 1)(iter([0.1, 0.2, 0.3]), 0.5, 2)


def _chunk_zero(x, n):
    for t in checkpointed(range(n), snapshots=2, chunk=0):
        x = x * 2.0
    return x


def _chunk_name(x, n, k):
    for t in checkpointed(range(n), snapshots=2, chunk=k):
        x = x * 2.0
    return x


def _chunk_taken(x, n):
    _chunk_of_t = 1.0
    for t in checkpointed(range(n), snapshots=2, chunk=2):
        x = x * 2.0
    return x * _chunk_of_t


@pytest.mark.parametrize("fn, args, words", [
    (_chunk_zero, (0.5, 3), "integer literal k >= 1"),
    (_chunk_name, (0.5, 3, 2), "integer literal k >= 1"),
    (_chunk_taken, (0.5, 3), "uses the name '_chunk_of_t'")])
def test_chunk_refused_at_the_users_line(fn, args, words):
    with pytest.raises(TransformError, match=words) as info:
        grad(fn, 0)(*args)
    assert "test_chunks.py" in str(info.value)
