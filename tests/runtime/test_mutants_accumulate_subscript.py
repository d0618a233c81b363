"""accumulate_at's refusal of an object whose class has its own __getitem__ (red29's fix,
runtime/accumulate.py: a cotangent read by position went to the object's first
attribute, a silent wrong gradient): indexing such an object in a loop names the
indexing, under every policy (without the check, a later guard refuses it with the
message for loops over objects)."""
import numpy as np
import pytest

from tests.gradcheck import POLICIES
from transform import TransformError, grad


class Doubled:
    def __init__(self, xs):
        self.xs = xs

    def __getitem__(self, i):
        return self.xs[i] * 2.0

    def __len__(self):
        return len(self.xs)


def indexed_in_a_loop(x):
    d = Doubled(x)
    s = 0.0
    for i in range(3):
        s = s + d[i] * 2
    return s


@pytest.mark.parametrize("policy", POLICIES)
def test_indexing_an_object_with_its_own_getitem_is_refused_naming_the_indexing(policy):
    with pytest.raises(TransformError, match=r"`\[\.\.\.\]` on a Doubled runs the class's own"):
        grad(indexed_in_a_loop, policy=policy)(np.array([1.0, 2.0, 3.0]))
