"""`a[0:1] = [M]` puts M itself into a (the value's entries, not its list): the alias
check recorded the display list, so `y = a[0]; y *= x` was not seen to change M, a
silent wrong gradient (session 39's review; on main before that session too, and more
reachable since a list's entry read by index is no view of the list)."""
import numpy as np
import pytest

from transform import TransformError, grad


def slice_replaced(x):
    M = x * 3.0
    a = [x * 1.0]
    a[0:1] = [M]
    y = a[0]
    y *= x
    return np.sum(M ** 2)


def whole_replaced(x):
    M = x * 3.0
    a = [x * 1.0]
    a[:] = [M]
    y = a[0]
    y *= x
    return np.sum(M ** 2)


@pytest.mark.parametrize("f", [slice_replaced, whole_replaced])
def test_a_write_through_an_entry_put_by_a_slice_is_refused(f):
    with pytest.raises(TransformError, match="may share memory"):
        grad(f)(np.array([0.3, -0.7, 1.1]))
