"""benchmarks/scientific.py: every implementation of issue 19's workloads (thunkgrad and
each peer that imports) gives the hand-written gradient, at tiny sizes; the benchmark
checks the same before timing, at full sizes. A peer that does not import is skipped:
the suite needs neither JAX nor PyTorch."""
import importlib.util
import sys

import pytest

sys.path.insert(0, __file__.rsplit("/tests/", 1)[0] + "/benchmarks")
import scientific  # noqa: E402

WORKLOADS = {w.key: w for w in scientific.WORKLOADS}
FRAMEWORK = {"autograd": "autograd", "jax": "jax", "jax.jit": "jax", "torch": "torch"}


def tiny_args(w):
    """The workload's quick data with 3 steps (or 3 inputs): enough to chain steps."""
    shrunk = []
    for a in w.data(True):
        if isinstance(a, list):
            a = a[:3]
        elif isinstance(a, int) and a > 3:
            a = 3
        shrunk.append(a)
    return tuple(shrunk)


def assert_gives_hand_gradient(w, gradient, args):
    hand = w.hand(*args)
    err = scientific.relative_error(gradient(), hand)
    assert err is not None and err <= scientific.tolerance(args), (w.key, err)


@pytest.mark.parametrize("key", sorted(WORKLOADS))
def test_thunkgrad_gives_the_hand_gradient(key):
    w = WORKLOADS[key]
    args = tiny_args(w)
    g = scientific.grad(w.fn, w.wrt)
    assert_gives_hand_gradient(w, lambda: tuple(g(*args)), args)


@pytest.mark.parametrize("key", sorted(k for k, w in WORKLOADS.items() if w.hand_vec))
def test_the_vectorised_hand_gradient_is_the_loop_one(key):
    w = WORKLOADS[key]
    args = tiny_args(w)
    assert_gives_hand_gradient(w, lambda: w.hand_vec(*args), args)


@pytest.mark.parametrize("peer", scientific.PEERS)
@pytest.mark.parametrize("key", sorted(WORKLOADS))
def test_a_peer_gives_the_hand_gradient(peer, key):
    if importlib.util.find_spec(FRAMEWORK[peer]) is None:
        pytest.skip(f"{FRAMEWORK[peer]} is not installed")
    if peer == "autograd" and key == "S1c":
        pytest.skip("autograd refuses a write into an array (un[1:-1] = ...)")
    assert scientific.importable_peers([peer]) == [peer]
    w = WORKLOADS[key]
    args = tiny_args(w)
    assert_gives_hand_gradient(w, scientific.peer_gradient(peer, w, args), args)
