"""Session 30 (lib30): `np.add.at(a, indices, b)` and `np.subtract.at` as statements are
`a[...] = added_at(a, indices, b)` (transform/frontend/ufunc_at.py): the rule against
central differences in a and b (float64, float32; repeated indices, index tuples,
broadcast b), programs under every policy (a scatter-add in a loop, an argument as the
target: the caller's array is unchanged), and what stays refused at the user's line."""
import numpy as np
import pytest

from runtime.rules.ufunc_methods_helpers import added_at, subtracted_at
from tests.gradcheck import POLICIES, check_grad
from tests.rules.checks import case, check_float32, check_rule, rand
from transform import TransformError, grad

A34, V5, V3 = rand(3, 4), rand(5, seed=1), rand(3, seed=2)
REPEATED = np.array([0, 2, 0, 0, 1])

CASES = [
    case(added_at, V3, REPEATED, V5, id="add-at-repeated"),
    case(added_at, V3, [2, 2], 0.7, id="add-at-scalar-b"),
    case(added_at, A34, (np.array([0, 2, 0]), np.array([1, 1, 1])), V3, id="add-at-tuple"),
    case(added_at, A34, REPEATED[:4] % 3, rand(4, 4, seed=3), id="add-at-rows"),
    case(added_at, A34, (slice(None), [3, 0, 3]), rand(3, 1, seed=4), id="add-at-broadcast"),
    case(subtracted_at, V3, REPEATED, V5, id="subtract-at-repeated"),
    case(subtracted_at, A34, (np.array([1, 1]), np.array([0, 0])), 0.3, id="subtract-at"),
]


@pytest.mark.parametrize("fn, args, kwargs", CASES)
def test_matches_finite_differences(fn, args, kwargs):
    check_rule(fn, args, kwargs)


@pytest.mark.parametrize("fn, args, kwargs", CASES)
def test_float32_stays_float32(fn, args, kwargs):
    check_float32(fn, args, kwargs)


def histogram_loss(x, w):
    counts = np.zeros(3)
    idx = np.array([0, 1, 0, 2, 1, 0])
    np.add.at(counts, idx, x ** 2)
    np.subtract.at(counts, [2, 2], w * x[:2])
    return np.sum(counts * np.array([1.0, 2.0, 3.0])) + counts[0] * w


def scatter_in_a_loop(x, W):
    acc = np.zeros((3, 2))
    for i in range(4):
        np.add.at(acc, [i % 3, 0], W[i] * x[i])
    return np.sum(np.tanh(acc) ** 2)


def into_the_argument(x, w):
    np.add.at(x, [1, 1], w)
    return np.sum(x ** 3)


def binned(x, idx):
    out = np.zeros(3)
    np.add.at(out, idx, x)
    return out


def through_a_helper(x, w):
    def scaled(v):
        return v * w
    return np.sum(binned(x, [0, 2, 2, 1, 0]) ** 2) + np.sum(binned(scaled(x), [1, 1, 1, 0, 2]))


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn, args", [(histogram_loss, (rand(6, seed=5), 0.8)),
                                      (scatter_in_a_loop, (V5, rand(4, 2, seed=6))),
                                      (into_the_argument, (V3, 0.4)),
                                      (through_a_helper, (V5, 0.6))],
                         ids=["histogram", "loop", "argument", "helper"])
def test_programs_match_finite_differences(fn, args, policy):
    check_grad(fn, args, policy=policy)


def test_the_callers_array_is_unchanged():
    x = V3.copy()
    grad(into_the_argument, wrt=(0, 1))(x, 0.4)
    np.testing.assert_array_equal(x, V3)


def helper_adds_at(a, w):
    np.add.at(a, 0, w)


def writes_through_a_helper(x, w):
    y = x * 1.0
    helper_adds_at(y, w)
    return np.sum(y)


def adds_at_a_view_read_later(x, w):
    y = x * 1.0
    head = y[:2]
    np.add.at(head, [0, 0], w)
    return np.sum(y)


def powers_at(x, w):        # multiply, divide, maximum, minimum: test_ufunc_at_more.py
    y = x * 1.0
    np.power.at(y, [0, 0], w)
    return np.sum(y)


def at_into_a_subscript(x, w):
    y = np.zeros((2, 3))
    np.add.at(y[0], [1, 1], w)
    return np.sum(y * x[0])


@pytest.mark.parametrize("fn, message", [
    (writes_through_a_helper, "writing into the argument `a` is not supported"),
    (adds_at_a_view_read_later, "`y` may be a view of|`head` may be a view of"),
    (powers_at, r"`at\(...\)` changes `y` in place"),
    (at_into_a_subscript, r"writing into `y\[0\]` is not supported here \(`at` writes"),
])
def test_what_is_not_rewritten_is_refused_at_the_users_line(fn, message):
    with pytest.raises(TransformError, match=message) as info:
        grad(fn, wrt=(0, 1))(V3.copy(), 0.5)
    assert "test_ufunc_at.py" in str(info.value)
