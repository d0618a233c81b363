"""Behaviour the mutation run (tools/mutate.py) found unpinned in
runtime/rules/scipy_special.py: each test kills a mutant the other tests let through."""
import numpy as np
import pytest

from tests.gradcheck import POLICIES

sc = pytest.importorskip("scipy.special")

from transform import grad  # noqa: E402


def signed_logsumexp(a):
    value, sign = sc.logsumexp(a, b=np.array([1.0, -0.5, 2.0]), return_sign=True)
    return value * sign


@pytest.mark.parametrize("policy", POLICIES)
def test_logsumexp_with_return_sign_has_no_rule(policy):
    """Refused with the reason, rather than differentiated as if it returned one value."""
    with pytest.raises(TypeError, match="return_sign"):
        grad(signed_logsumexp, policy=policy)(np.array([0.3, -1.2, 0.8]))
