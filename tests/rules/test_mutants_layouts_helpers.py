"""Behaviour the mutation run (tools/mutate.py) found unpinned in
runtime/rules/layouts_helpers.py: each test kills a mutant the other tests let through."""
import numpy as np

import runtime
from transform import vjp

X3, Y2 = np.array([0.3, 0.5, 0.7]), np.array([1.5, -0.5])


def grid_first(x, y):
    return np.meshgrid(x, y)[0]


def test_meshgrid_rule_copies_like_numpy_by_default():
    """np.meshgrid(x, y) returns new writable arrays (copy=True is NumPy's default);
    the rule's primal value must too, not read-only views of x and y."""
    x, y = X3.copy(), Y2.copy()
    out, _ = runtime.lookup(np.meshgrid).rrule(x, y)
    for part, source in zip(out, (x, y)):
        assert part.flags.writeable and not np.shares_memory(part, source)


def test_a_returned_meshgrid_output_does_not_follow_the_argument():
    """vjp's value is the function's output: changing the argument afterwards must not
    change it (np.meshgrid copied)."""
    x = X3.copy()
    out, pullback = vjp(grid_first, x, Y2)
    x[0] = 100.0
    np.testing.assert_array_equal(out, np.meshgrid(X3, Y2)[0])
    dx, dy = pullback(np.ones((2, 3)))
    np.testing.assert_array_equal(dx, [2.0, 2.0, 2.0])       # exact: each x repeated twice
    np.testing.assert_array_equal(dy, [0.0, 0.0])
