"""A checkpointed loop's variable read after the loop (transform/frontend/checkpointed_after.py):
it holds the last item, as in Python, or what it held before an empty loop; its
cotangent reaches that item. Against the unmarked loop (1e-12) and finite differences."""
import numpy as np
import pytest

from tests.fd import numerical_grad
from tests.gradcheck import POLICIES
from transform import TransformError, checkpoint_stats, checkpointed, grad


def _range_ck(x, n):
    t = 0.5
    for t in checkpointed(range(n), snapshots=2):
        x = np.sin(x) * 1.1
    return np.sum(x) * t


def _range(x, n):
    t = 0.5
    for t in range(n):
        x = np.sin(x) * 1.1
    return np.sum(x) * t


def _rows_ck(W, xs, h):
    for x in checkpointed(xs, snapshots=2, chunk=2):
        h = np.tanh(W @ h + x)
    return np.sum(h ** 2) + np.sum(x ** 3)


def _rows(W, xs, h):
    for x in xs:
        h = np.tanh(W @ h + x)
    return np.sum(h ** 2) + np.sum(x ** 3)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("n", [0, 1, 6])
def test_a_range_variable_after_the_loop(policy, n):
    x = np.array([0.2, -0.4, 0.9])
    with checkpoint_stats() as stats:
        got = grad(_range_ck, 0, policy=policy)(x, n)
    assert stats.loops == 1 and stats.steps == n
    np.testing.assert_allclose(got, grad(_range, 0, policy=policy)(x, n), rtol=1e-12)
    np.testing.assert_allclose(got, numerical_grad(_range, (x, n), 0), rtol=1e-6, atol=1e-9)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("kind", [np.array, list])
def test_the_last_item_gets_its_cotangent(policy, kind):
    rng = np.random.default_rng(4)
    W, xs, h = rng.normal(size=(3, 3)) / 2, rng.normal(size=(5, 3)), np.zeros(3)
    got = grad(_rows_ck, (0, 1), policy=policy)(W, kind(xs), h)
    want = grad(_rows, (0, 1), policy=policy)(W, kind(xs), h)
    for a, b, k in zip(got, want, (0, 1)):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-12, atol=1e-300)
        fd = numerical_grad(_rows, (W, xs, h), k)
        np.testing.assert_allclose(np.asarray(a), fd, rtol=1e-6, atol=1e-9)


def _rebound_ck(v0, n):
    v3 = v0 * -0.3
    for v2 in checkpointed(range(n), snapshots=2):
        v2 = np.tanh(v2 * v0)
        v3 = v3 * 0.5 + v2 * -0.3
    return v3 * 2.0


def _rebound(v0, n):
    v3 = v0 * -0.3
    for v2 in range(n):
        v2 = np.tanh(v2 * v0)
        v3 = v3 * 0.5 + v2 * -0.3
    return v3 * 2.0


def _rebound_read_after(v0, n):
    v2 = v0
    for v2 in checkpointed(range(n), snapshots=2):
        v2 = np.tanh(v2 * v0)
    return v2


def test_a_body_rebinding_its_loop_variable():
    # session 34 (fuzz checkpointed_loops:9437): the item's cotangent (the rebound name's)
    # was returned as a range's entries: a TypeError; read after the loop, the name
    # would hold the last item, where Python leaves the rebound value: refused
    assert grad(_rebound_ck)(0.3, 5) == grad(_rebound)(0.3, 5)
    with pytest.raises(TransformError, match="rebinds its loop variable") as info:
        grad(_rebound_read_after)(0.3, 5)
    assert info.value.line == _rebound_read_after.__code__.co_firstlineno + 2
