"""Behaviour the mutation run (tools/mutate.py) found unpinned in runtime/rules/linalg.py:
each test kills a mutant the other tests let through."""
import numpy as np
import pytest

import runtime


def test_einsum_rule_refuses_the_interleaved_operand_form():
    """np.einsum(a, [0, 1], b, [1, 2]) has no string subscripts: the rule says so instead
    of differentiating with the operands taken for subscripts."""
    a, b = np.ones((2, 3)), np.ones((3, 4))
    with pytest.raises(NotImplementedError, match="string subscripts"):
        runtime.lookup(np.einsum).rrule(a, [0, 1], b, [1, 2])
