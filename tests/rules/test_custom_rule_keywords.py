"""A registered rrule's pullback answers by position only: a value being differentiated
passed to it by keyword is refused at the call (it was a silent zero)."""
import numpy as np
import pytest

from transform import Thunk, TransformError, grad, rrule, unthunk


def scaled_softplus(x, scale=1.0):
    return scale * np.log1p(np.exp(x))


@rrule(scaled_softplus)
def _scaled_softplus_rule(x, scale=1.0):
    ans = scaled_softplus(x, scale)
    return ans, lambda g: (Thunk(lambda: unthunk(g) * scale / (1 + np.exp(-x))),)


def by_keyword(x, s):
    return np.sum(scaled_softplus(x, scale=s))


def constant_keyword(x):
    return np.sum(scaled_softplus(x, scale=2.0))


def test_differentiated_keyword_is_refused():
    with pytest.raises(TransformError, match="`scale`"):
        grad(by_keyword, wrt=1)(np.array([0.2, -0.4]), 1.5)


def test_differentiated_positional_still_flows_with_a_constant_keyword():
    x = np.array([0.2, -0.4])
    np.testing.assert_allclose(grad(constant_keyword)(x), 2.0 / (1 + np.exp(-x)))


def test_keyword_not_differentiated_is_fine():
    x = np.array([0.2, -0.4])
    got = grad(by_keyword, wrt=0)(x, 1.5)
    np.testing.assert_allclose(got, 1.5 / (1 + np.exp(-x)))
