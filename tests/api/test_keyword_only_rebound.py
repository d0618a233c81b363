"""A keyword-only parameter the body rebinds (`y = 2.0 * y`) after the backward sweep
needs its old value: it is overwritten, not first defined, and the tape keeps the old
value (session 33: it was read after the rebinding, a silent wrong gradient; the hvp
corpus found it, forward code rebinding its `x_dot` parameter)."""
import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad
from tests.gradcheck import POLICIES, check_grad, rng
from transform import vjp


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


def squared_after_rebinding(x, *, y):
    z = np.sin(y * x)
    y = 2.0 * y
    return np.sum(z + y * y)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn", [rebound, rebound_in_loop, squared_after_rebinding])
def test_cotangent_of_a_rebound_keyword_argument_is_its_entry_value(fn, policy):
    """wrt the keyword-only parameter itself (hvp differentiates `_jvp` code along its
    keyword-only tangents, which the body rebinds): its cotangent was added to the
    rebound name's instead of moving to it."""
    r = rng("keyword-only wrt", fn.__name__)
    x, y = r.normal(size=3), r.normal(size=3)
    _, pullback = vjp(fn, x, wrt=(0, "y"), policy=policy, y=y)
    got = pullback(1.0)
    plain = lambda x, y: fn(x, y=y)                                    # noqa: E731
    assert_close(got[0], numerical_grad(plain, (x, y), 0))
    assert_close(got[1], numerical_grad(plain, (x, y), 1))
