"""np.piecewise with pieces that are closures (lambdas reading the caller's locals):
Huber with a non-differentiated delta, a differentiated delta, pieces reading a
differentiated weight, a piece through a helper; finite differences, every policy."""
import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_grad, rng
from transform import TransformError, grad

policies = pytest.mark.parametrize("policy", POLICIES)
R = np.array([0.2, -1.7, 0.9, 2.5, -0.3, -3.1])


def huber(r, delta=1.0):        # as reported: both lambdas on one line
    return np.piecewise(r, [abs(r) <= delta], [lambda t: 0.5*t**2, lambda t: delta*(np.abs(t) - 0.5*delta)])  # noqa: E501


def huber_loss(w, x, y):
    return np.sum(huber(x * w - y))


def huber_with_delta(r, delta):
    return np.sum(huber(r, delta) ** 2)


def pieces_read_a_weight(r, a, b):
    return np.sum(np.piecewise(r, [r < 0.0, r > 1.0],
                               [lambda t: a * np.sin(t),
                                lambda t: b * t ** 2 + a,
                                lambda t: a * b * t]))


def piece_and_args(r, a):
    return np.sum(np.piecewise(r, [r < 0.0], [lambda t, s: s * t * a,
                                              lambda t, s: t + a], 2.0 * a))


def in_a_loop(r, scales):
    s = 0.0
    for c in scales:
        s = s + np.sum(np.piecewise(r, [r < c], [lambda t, c=c: c * t,
                                                 lambda t: t * t]))
    return s


@policies
def test_huber_with_non_differentiated_delta(policy):
    check_grad(huber_loss, [0.7, rng("pw.x").normal(size=6) * 2, rng("pw.y").normal(size=6)],
               policy=policy)


@policies
def test_huber_with_differentiated_delta(policy):
    check_grad(huber_with_delta, [R, 1.3], policy=policy)


@policies
def test_pieces_read_differentiated_values(policy):
    check_grad(pieces_read_a_weight, [R, 0.8, -1.4], policy=policy)


@policies
def test_closure_pieces_with_extra_args(policy):
    check_grad(piece_and_args, [R, 0.6], policy=policy)


def late_binding_in_a_loop(r, scales):
    s = 0.0
    for c in scales:
        s = s + np.sum(np.piecewise(r, [r < c], [lambda t: c * t,
                                                 lambda t: t * t]))
    return s


def test_late_binding_in_a_loop_is_refused():
    with pytest.raises(TransformError, match="reads `c`"):
        grad(late_binding_in_a_loop)(R, [0.5, 1.0])


@policies
def test_closure_pieces_in_a_loop(policy):
    check_grad(in_a_loop, [R, [0.5, -1.0, 2.0]], wrt=(0, 1), policy=policy)
