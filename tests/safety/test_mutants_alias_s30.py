"""Session 30 (mut30c): a starred target (transform/alias/writes.py's Starred branch).

The frontend unpacks `first, *rest = xs` into a list and indexing
(frontend/starred_targets.py) and refuses every other starred target, so the alias
check never meets one: a write through the starred name is still refused, and a starred
comprehension target, whose gradient used to be silently zero, is refused at its line."""
import numpy as np
import pytest

from tests.containers.check import assert_error_at
from tests.gradcheck import POLICIES
from transform import TransformError, grad

from . import alias_star_funcs as F

A2 = np.array([[1.0, 2.0], [3.0, 4.0]])
V3 = np.array([1.0, 2.0, 3.0])

# fn, argument, the text of the refused line, words the message says
REFUSED = [
    (F.star_rest_rows, A2, "rest[0][0] = 0.0", "`rest[0]`", "`B`"),
    (F.star_rest_list, V3, "rest[0][0] = 0.0", "`rest[0]`", "`b`"),
    (F.star_rest_nested, V3, "rest[0][0][0] = 0.0", "`rest[0][0]`", "`b`"),
    (F.star_rest_write_into, V3, "last[0] = 0.0", "`last`", "`b`"),
    (F.star_in_generator, V3, "for a, *r in rows", "starred", "comprehension"),
    (F.star_in_list_comprehension, V3, "for a, *r in rows", "starred", "comprehension"),
    (F.star_in_dict_comprehension, V3, "for k, (a, *r) in", "starred", "comprehension"),
]


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("case", REFUSED, ids=lambda c: c[0].__name__)
def test_refused_at_the_line(case, policy):
    fn, arg, marker, *words = case
    x = arg.copy()
    with pytest.raises(TransformError) as info:
        grad(fn, policy=policy)(x)
    assert_error_at(info.value, fn, marker, *words)
    np.testing.assert_array_equal(x, arg)
