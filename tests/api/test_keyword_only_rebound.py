"""A keyword-only parameter the body rebinds (`y = 2.0 * y`) after the backward sweep
needs its old value: it is overwritten, not first defined, and the tape keeps the old
value (session 33: it was read after the rebinding, a silent wrong gradient; the hvp
corpus found it, forward code rebinding its `x_dot` parameter)."""
import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_grad, rng


def rebound(x, *, y):
    z = np.sin(y * x)
    y = 2.0 * y
    return np.sum(z + y)


def rebound_in_loop(x, *, y):
    s = 0.0
    for _ in range(3):
        s = s + np.sum(np.tanh(y * x))
        y = y * 1.5 + 0.1
    return s


def rebound_to_a_literal(x, *, y):
    z = np.sum(x * y)
    y = 3.0
    return z * y


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn", [rebound, rebound_in_loop, rebound_to_a_literal])
def test_gradient_reads_the_keyword_argument_before_its_rebinding(fn, policy):
    r = rng("keyword-only rebound", fn.__name__)
    check_grad(fn, [r.normal(size=3)], wrt=0, policy=policy, kwargs={"y": r.normal(size=3)})
    check_grad(fn, [r.normal(size=3)], wrt=0, policy=policy, kwargs={"y": 0.7})
