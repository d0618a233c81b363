"""Session 30 (mut30c): behaviour tests for mutants of the compiler passes that
mut30b's seeded sample left unjudged (docs/testing.md, "the passes sample settled")."""
import numpy as np
import pytest

from tests.gradcheck import POLICIES
from transform import grad

from . import mutant_pass_funcs_s30c as F


@pytest.mark.parametrize("policy", POLICIES)
def test_pop_of_a_missing_key_raises_as_the_primal_does(policy):
    """frontend/container_methods.py: `d.pop(k)` with no target and no default keeps
    the primal's `d[k]` read, so a missing key is the primal's KeyError, not a gradient."""
    x = np.array([1.0, 2.0])
    with pytest.raises(KeyError, match="'b'"):
        F.pop_missing_key(x)
    with pytest.raises(KeyError, match="'b'"):
        grad(F.pop_missing_key, policy=policy)(x)
    np.testing.assert_array_equal(x, [1.0, 2.0])
