"""`x.astype(t, copy=False)` is x itself when x's dtype is t already: a second name for
x, so a store into the result writes into x. (Session 31, red31: the alias analysis took
every astype for a fresh array, and `v = w.astype(np.float64, copy=False); v[1:3] = ...`
followed by a read of w got a silently wrong gradient under every policy.) Refused where
the shared memory is read after the write or is the caller's; every other program
against finite differences under every policy."""
import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_function, rng
from transform import grad
from transform.errors import TransformError

COPY = False


def keyword_copy_false(u, k):
    w = u * 1.0
    v = w.astype(np.float64, copy=False)
    v[1:3] = k * w[2:4]
    return np.sum(w ** 2) + np.sum(v * u)


def positional_copy_false(u, k):
    w = u * 1.0
    v = w.astype(np.float64, "K", "unsafe", True, False)
    v[1:3] = k * w[2:4]
    return np.sum(w ** 2) + np.sum(v * u)


def copy_from_a_global(u, k):
    w = u * 1.0
    for _ in range(2):
        v = w.astype(np.float64, copy=COPY)
        v[1:-1] = k * w[2:]
        w = np.tanh(v) + w
    return np.sum(w ** 2)


def into_the_argument(u, k):
    v = u.astype(np.float64, copy=False)
    v[0] = k
    return np.sum(v ** 2)


def copy_true(u, k):
    w = u * 1.0
    v = w.astype(np.float64, copy=True)
    v[1:3] = k * w[2:4]
    return np.sum(w ** 2) + np.sum(v * u)


def default_copy(u, k):
    w = u * 1.0
    v = w.astype(np.float64)
    v[1:3] = k * w[2:4]
    return np.sum(w ** 2) + np.sum(v * u)


def read_by_the_backward_only(u, k):
    w = u * 1.0
    t = w ** 2
    v = w.astype(np.float64, copy=False)
    v[1:3] = k
    return np.sum(v ** 2) + np.sum(t)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn", [keyword_copy_false, positional_copy_false, copy_from_a_global,
                                into_the_argument], ids=lambda f: f.__name__)
def test_a_store_into_shared_memory_is_refused(fn, policy):
    with pytest.raises(TransformError, match="share memory"):
        grad(fn, wrt=(0, 1), policy=policy)(np.linspace(0.1, 0.9, 5), 0.7)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn", [copy_true, default_copy, read_by_the_backward_only],
                         ids=lambda f: f.__name__)
def test_gradients_match_finite_differences(fn, policy):
    check_function(fn, [rng("astype", fn.__name__).normal(size=5), 0.7], (0, 1), policy)
