"""Behaviour the mutation run (tools/mutate.py) found unpinned in
transform/optimize/resets.py: each test kills a mutant the other tests let through."""
import pytest

from tests.gradcheck import POLICIES, check_grad


def rebound_after_a_branch_with_a_loop(b, w, n):
    s = 0.0
    for i in range(n):
        x = 1.0
        if n > 0:
            for j in range(2):
                x = x * 3.0 + w
                s = s + x * 7.0
        x = b * 2.0
        s = s + x * 5.0
    return s


@pytest.mark.parametrize("policy", POLICIES)
def test_a_reset_read_by_the_very_next_statement_stays(policy):
    """Backward body: `dx = None` (x = b * 2.0 rebinds x), then the branch whose loop adds
    into dx, then `dx = None` again (x = 1.0). The reset's next use is the branch, which
    reads dx: it must stay, though the use after that overwrites dx. Dropping it (the
    search for the next use starting one statement late; the branch, unlike a statement,
    has no comment in front) made the loop add into b's cotangent: dw 110 instead of 70."""
    check_grad(rebound_after_a_branch_with_a_loop, (0.5, 1.5, 2), wrt=(0, 1), policy=policy)
