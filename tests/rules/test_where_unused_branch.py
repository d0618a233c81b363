"""README "Both branches of np.where are evaluated": the unused branch's NaN derivative
reaches the gradient (NaN times a zero cotangent), and the documented remedy (keep the
unused branch finite) gives the finite-difference gradient, under every policy."""
import warnings

import numpy as np
import pytest

from transform import grad
from tests.gradcheck import POLICIES, check_grad

X = np.array([-1.0, 4.0, 0.5])


def where_sqrt(x):
    return np.sum(np.where(x > 0, np.sqrt(x), 0.0))


def where_sqrt_safe(x):
    safe = np.where(x > 0, x, 1.0)
    return np.sum(np.where(x > 0, np.sqrt(safe), 0.0))


@pytest.mark.parametrize("policy", POLICIES)
def test_the_unused_branch_nan_reaches_the_gradient(policy):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        got = grad(where_sqrt, policy=policy)(X)
    assert np.isnan(got[0]) and np.allclose(got[1:], 0.5 / np.sqrt(X[1:]))


@pytest.mark.parametrize("policy", POLICIES)
def test_a_finite_unused_branch_gives_the_gradient(policy):
    check_grad(where_sqrt_safe, [X], policy=policy)
    assert grad(where_sqrt_safe, policy=policy)(X)[0] == 0.0
