"""Mutation survivors of runtime/rules/factorizations_helpers.py pinned by behaviour:
a tuple result's cotangent given as one stacked array, and a zero (None) cotangent."""
import numpy as np
import pytest

import runtime
from tests.fd import assert_close, numerical_grad
from tests.gradcheck import POLICIES, check_grad
from tests.rules.checks import check_rule, rand

A33 = rand(3, 3, seed=11) + 2 * np.eye(3)
WEIGHTS = np.arange(18.0).reshape(2, 3, 3) / 10


def summed_qr(a):
    return np.sum(np.linalg.qr(a))


def weighted_qr_array(a):
    return np.sum(np.array(np.linalg.qr(a)) * WEIGHTS)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("f", [summed_qr, weighted_qr_array])
def test_qr_of_a_square_matrix_stacked_into_one_array(f, policy):
    """np.sum over (Q, R) stacks them: the cotangent reaching the rule is one (2, n, n)
    array whose first axis holds gQ and gR (it was read as gQ alone: a crash)."""
    check_grad(f, [A33], wrt=(0,), policy=policy)


@pytest.mark.parametrize("fn, args", [
    (np.linalg.qr, (A33,)), (np.linalg.qr, (rand(3, 5, seed=12),)),
    (np.linalg.lstsq, (A33, rand(3, seed=13))),
    (np.linalg.eig, (A33 @ A33.T,))])
def test_a_zero_cotangent_gives_zero_cotangents(fn, args):
    """The pullback of a tuple result given None (no part used) returns zeros shaped like
    the inputs."""
    _, pullback = runtime.lookup(fn).rrule(*args)
    cotangents = [runtime.unthunk(c) for c in pullback(None)]
    assert len(cotangents) == len(args)
    for c, x in zip(cotangents, args):
        assert np.shape(c) == np.shape(x)
        assert not np.any(c)


def test_the_qr_pullback_reads_a_stacked_cotangent_by_parts():
    """pullback(np.stack([gQ, gR])) == pullback((gQ, gR)), both against differences."""
    gQ, gR = rand(3, 3, seed=14), rand(3, 3, seed=15)
    _, pullback = runtime.lookup(np.linalg.qr).rrule(A33)
    stacked = runtime.unthunk(pullback(np.stack([gQ, gR]))[0])

    def loss(a):
        Q, R = np.linalg.qr(a)
        return np.sum(gQ * Q) + np.sum(gR * R)
    assert_close(stacked, numerical_grad(loss, [A33], 0), rtol=1e-5, atol=1e-7)


def _real_spectrum_stack(batch, n=3):
    """P diag(d) P^-1 for each matrix of a stack: distinct real eigenvalues."""
    P = rand(*batch, n, n, seed=16) + 2 * np.eye(n)
    d = np.arange(1.0, n + 1) * 1.5 - 3
    return P * d @ np.linalg.inv(P)


def test_qr_of_a_stack_of_stacks():
    """Two batch axes (2, 2, 4, 3): the identity that copies the lower triangle up is
    as large as the matrices (n), not as the second batch axis."""
    check_rule(np.linalg.qr, [rand(2, 2, 4, 3, seed=17)])


def test_eigvals_of_a_stack_of_stacks():
    """diag(gw) for gw of shape (2, 2, 3): the eigenvalue cotangent spread along the
    matrices' last axis, not along a batch axis."""
    check_rule(np.linalg.eigvals, [_real_spectrum_stack((2, 2))])
