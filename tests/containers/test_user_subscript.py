"""`obj[i]` on a user class with its own __getitem__ (and __len__): the primal runs the
class's code, which is not differentiated; the backward sweep says so instead of
asking np.shape for the object's shape (which iterated it without end: a hang)."""
import pytest

from transform import TransformError, grad

from .check import policies


class Scaled:
    def __init__(self, v):
        self.v = v

    def __len__(self):
        return 3

    def __getitem__(self, i):
        return self.v * (i + 1)


def subscripted(a, b):
    s = Scaled(a * b)
    return s.v + s[2] + len(s)


@pytest.mark.parametrize("policy", policies())
def test_own_getitem_is_refused_not_hung(policy):
    with pytest.raises(TransformError, match="Scaled runs the class's own __getitem__") \
            as info:       # (a TypeError with no line before msgs41: at the user's line now)
        grad(subscripted, wrt=(0, 1), policy=policy)(0.4, 1.3)
    assert info.value.filename == __file__
    assert info.value.line == subscripted.__code__.co_firstlineno + 2
