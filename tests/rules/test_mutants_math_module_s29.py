"""Mutants of math_module.py's session-29 lines (mutF): math.nextafter's steps= keyword
exists from Python 3.12, and the rule's signature takes it there (the version test on the
signature line: `(3, 12) -> (3, 13)` / `(4, 12)` would refuse steps= on 3.12). Skipped
on older Pythons, where math.nextafter has no steps= (`make compat` runs 3.12+)."""
import math
import sys

import pytest

from tests.gradcheck import POLICIES, check_grad


def several_steps(x, y):
    return math.nextafter(x * x, y, steps=3) * math.sin(x) + math.nextafter(y, x, steps=1)


@pytest.mark.skipif(sys.version_info < (3, 12), reason="math.nextafter's steps= is 3.12+")
@pytest.mark.parametrize("policy", POLICIES)
def test_nextafter_with_steps_against_finite_differences(policy):
    """nextafter(x, y, steps=k) has slope 1 in x whatever k; y only picks the direction."""
    check_grad(several_steps, [0.8, -0.3], wrt=(0, 1), policy=policy)
