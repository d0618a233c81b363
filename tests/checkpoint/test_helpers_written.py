"""Helpers called in a checkpointed loop's body (transform/frontend/checkpointed_writes.py):
one whose source writes into nothing leaves its arguments uncarried and the step plain
(a loop over items passing the item to it is accepted); one that writes, or calls
something that may, counts as writing into every argument."""
import numpy as np
import pytest

from runtime.checkpoint import STEPS
from tests.fd import numerical_grad
from transform import TransformError, checkpoint_stats, checkpointed, grad


def _cell(x, h, W):
    return np.tanh(W @ h + x)


def _twice(x, h, W):
    return _cell(x, _cell(x, h, W), W)


def _into(h, x):
    h += x                          # writes into its argument
    return h


def _calls_into(h, x):
    return _into(h, x) * 1.0


def _method_of_local(h):
    return h.clip(-0.25, 0.25)      # (a method: which one, and what it writes, unknown)


def _rnn(W, xs, h):
    for x in checkpointed(xs, snapshots=2):
        h = _twice(x, h, W)
    return np.sum(h ** 2)


def _rnn_plain(W, xs, h):
    for x in xs:
        h = _twice(x, h, W)
    return np.sum(h ** 2)


def _step(name):
    return next(STEPS[k] for k in sorted(STEPS) if f".{name}:" in k)


def test_an_item_passed_to_a_pure_helper_is_accepted_and_plain():
    rng = np.random.default_rng(0)
    W, xs, h = rng.normal(size=(3, 3)) / 2, rng.normal(size=(7, 3)), np.zeros(3)
    with checkpoint_stats() as stats:
        got = grad(_rnn, (0, 1))(W, xs, h)
    assert stats.recomputed > 0 and _step("_rnn").thunkgrad_plain_advance is True
    want = grad(_rnn_plain, (0, 1))(W, xs, h)
    for a, b, k in zip(got, want, (0, 1)):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=0)
        np.testing.assert_allclose(a, numerical_grad(_rnn_plain, (W, xs, h), k),
                                   rtol=1e-6, atol=1e-9)


def _item_into(xs, h):
    for x in checkpointed(xs, snapshots=2):
        h = h + _calls_into(x, h)
    return np.sum(h)


def test_an_item_passed_to_a_writing_helper_is_refused():
    with pytest.raises(TransformError, match="writes into its loop variable"):
        grad(_item_into, 1)(np.ones((3, 2)), np.ones(2))


def _sorted_ck(u, n):
    for t in checkpointed(range(n), snapshots=2):
        u = np.sin(_method_of_local(u))
    return np.sum(u)


def test_a_helper_calling_a_method_of_its_argument_is_not_plain():
    grad(_sorted_ck, 0)(np.array([0.3, -0.2, 0.1]), 4)
    assert _step("_sorted_ck").thunkgrad_plain_advance is False
