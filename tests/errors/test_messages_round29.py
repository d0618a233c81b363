"""Refusal messages a red team found bare (round 29): each names the user's line and
says what to write instead; the rewrite it suggests is then differentiated right."""
import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_grad, rng
from transform import TransformError, grad


def masked_sum(x):
    return np.sum(x ** 2, where=x > 0)


def masked_sum_rewritten(x):
    return np.sum(np.where(x > 0, x ** 2, 0.0))


def import_inside(x):
    import math
    return np.sum(x) * math.pi


@pytest.mark.parametrize("policy", POLICIES)
def test_a_keyword_the_rule_does_not_take(policy):
    x = rng("round29.where").normal(size=4)
    with pytest.raises(TransformError) as info:
        grad(masked_sum, policy=policy)(x)
    text = str(info.value)
    assert "test_messages_round29.py:11:" in text and "keyword `where`" in text   # (msgs41)
    assert "Instead: np.sum's derivative rule takes (a, axis=None" in text
    assert "np.sum(np.where(mask, x, 0.0))" in text
    check_grad(masked_sum_rewritten, [x], policy=policy)


def test_import_inside_the_function_reads_as_a_sentence():
    with pytest.raises(TransformError) as info:
        grad(import_inside)(np.ones(3))
    text = str(info.value)
    assert "`import` statements inside the function are not supported" in text
    assert "Instead: import at module level" in text


class Doubled:
    """A user sequence: its __getitem__ (Python's old iteration protocol too) is its code."""

    def __init__(self, data):
        self.data = data

    def __getitem__(self, i):
        return self.data[i] * 2.0

    def __len__(self):
        return len(self.data)


def index_a_user_sequence_in_a_loop(x):
    s = Doubled(x)
    return sum(s[i] ** 2 for i in range(len(s)))


def loop_over_a_user_sequence(x):
    s = Doubled(x)
    total = 0.0
    for v in s:
        total = total + v ** 2
    return total


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn", [index_a_user_sequence_in_a_loop, loop_over_a_user_sequence])
def test_a_user_sequence_read_in_a_loop_is_refused_not_wrong(fn, policy):
    # (was a silently wrong gradient: the entries' cotangents went to the object's first
    # attribute as if by position, skipping the class's `* 2.0`)
    # (indexing: a TransformError at the user's line since msgs41)
    with pytest.raises((TypeError, TransformError), match="own __(iter|getitem)__"):
        grad(fn, policy=policy)(rng("round29.seq").normal(size=3))
