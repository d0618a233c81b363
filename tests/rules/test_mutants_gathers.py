"""Behaviour the mutation run (tools/mutate.py, session 29) found unpinned in
runtime/rules/gathers.py and gathers_helpers.py: each test kills a mutant the other
tests let through (central differences under every policy, exact values)."""
import numpy as np
import pytest

import runtime
from tests.gradcheck import POLICIES
from tests.rules.checks import check_rule, rand
from transform import TransformError, grad


def aliased(x, y):
    own = x.copy()
    a, b = np.broadcast_arrays(own, y)
    s = np.sum(a * b * b)
    own[0] = 3.0          # a is a view of own: its entries move too
    return s + np.sum(a * y)


@pytest.mark.parametrize("policy", POLICIES)
def test_broadcast_arrays_outputs_are_views_of_the_inputs(policy):
    """np.broadcast_arrays' parts_view (shape.py): without it the write into `own` is
    not seen to move `a`, and x's gradient comes out silently wrong in its entry 0."""
    with pytest.raises(TransformError, match="may share memory with `own`"):
        grad(aliased, policy=policy)(rand(4, seed=3), rand(3, 1, seed=4))


@pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")
def test_broadcast_arrays_rule_gives_plain_arrays_by_default():
    """subok=False, as NumPy's own default: a matrix argument gives ndarrays."""
    m = np.matrix([[1.0, 2.0]])
    out, _ = runtime.lookup(np.broadcast_arrays).rrule(m, np.ones((3, 2)))
    expected = np.broadcast_arrays(m, np.ones((3, 2)))
    assert [type(o) for o in out] == [type(e) for e in expected] == [np.ndarray] * 2


@pytest.mark.parametrize("to_end, to_begin", [(np.array([0.5, -1.5]), None),
                                              (None, np.array([2.0])), (0.25, -0.75)])
def test_ediff1d_of_one_entry(to_end, to_begin):
    """One entry has no differences (n_diff 0): the whole cotangent is the fills'."""
    check_rule(np.ediff1d, [np.array([1.5]), to_end, to_begin])


def test_block_of_one_array():
    """One leaf: the cotangent buffer takes that leaf's dtype (leaves[0])."""
    check_rule(np.block, [[rand(3, 4)]])
