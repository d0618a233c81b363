"""An RNN loss (hidden 64, input 32, 100 steps, tanh) matches central
finite differences for every parameter (Wh, Wx, b, h0): along random directions
(directional derivatives) and for a handful of individual elements."""
import numpy as np
import pytest

from tests.gradcheck import POLICIES, directional_fd, readonly
from transform import grad, value_and_grad

HIDDEN, INPUT, STEPS = 64, 32, 100


def rnn_loss(Wh, Wx, b, h0, xs):
    h = h0
    for t in range(xs.shape[0]):
        h = np.tanh(Wh @ h + Wx @ xs[t] + b)
    return np.sum(h * h) / 2.0


def rnn_loss_rows(Wh, Wx, b, h0, xs):
    h = h0
    loss = 0.0
    for x in xs:
        h = np.tanh(Wh @ h + Wx @ x + b)
        loss = loss + np.sum(h) * 0.01
    return loss + np.sum(h * h) / 2.0


def make_problem(seed=0, steps=STEPS):
    rng = np.random.default_rng(seed)
    Wh = rng.normal(size=(HIDDEN, HIDDEN)) * (0.9 / np.sqrt(HIDDEN))
    Wx = rng.normal(size=(HIDDEN, INPUT)) * (1.0 / np.sqrt(INPUT))
    b = rng.normal(size=HIDDEN) * 0.1
    h0 = rng.normal(size=HIDDEN) * 0.5
    xs = rng.normal(size=(steps, INPUT))
    return readonly([Wh, Wx, b, h0, xs])


PARAMS = ["Wh", "Wx", "b", "h0"]


@pytest.fixture(scope="module")
def problem():
    return make_problem()


@pytest.fixture(scope="module")
def loop_grads(problem):
    return grad(rnn_loss, wrt=tuple(PARAMS), policy="loop")(*problem)


def _check_directions(fn, args, grads, k, seed, count=3):
    rng = np.random.default_rng(seed)
    for _ in range(count):
        d = rng.normal(size=np.shape(args[k]))
        expected = directional_fd(fn, args, k, d)
        got = float(np.sum(grads[k] * d))
        assert got == pytest.approx(expected, rel=1e-6, abs=1e-8)


def _check_elements(fn, args, grads, k, seed, count=4, eps=1e-6):
    rng = np.random.default_rng(seed)
    shape = np.shape(args[k])
    for _ in range(count):
        idx = tuple(int(rng.integers(s)) for s in shape)
        d = np.zeros(shape)
        d[idx] = 1.0
        expected = directional_fd(fn, args, k, d, eps=eps)
        assert grads[k][idx] == pytest.approx(expected, rel=1e-5, abs=1e-8)


@pytest.mark.parametrize("k", range(4), ids=PARAMS)
def test_rnn_directional_derivatives(problem, loop_grads, k):
    _check_directions(rnn_loss, problem, loop_grads, k, seed=100 + k)


@pytest.mark.parametrize("k", range(4), ids=PARAMS)
def test_rnn_individual_elements(problem, loop_grads, k):
    _check_elements(rnn_loss, problem, loop_grads, k, seed=200 + k)


def test_rnn_gradient_shapes_and_dtypes(problem, loop_grads):
    for g, a in zip(loop_grads, problem):
        assert isinstance(g, np.ndarray)
        assert g.shape == a.shape and g.dtype == a.dtype
        assert np.all(np.isfinite(g))
        assert np.any(g != 0)


def test_rnn_inputs_unchanged(problem):
    fresh = make_problem()
    for a, b in zip(problem, fresh):
        np.testing.assert_array_equal(a, b)


def test_rnn_value(problem):
    value, _ = value_and_grad(rnn_loss, wrt=0)(*problem)
    assert value == pytest.approx(rnn_loss(*problem), rel=1e-12)


def test_rnn_eager_policy_agrees_at_full_length(problem, loop_grads):
    grads = grad(rnn_loss, wrt=tuple(PARAMS), policy="eager")(*problem)
    for g, ref in zip(grads, loop_grads):
        np.testing.assert_allclose(g, ref, rtol=1e-9, atol=1e-12)


# "flat" and "nested" never materialise, so forcing the cotangent of a 100-step
# chain recurses once per step; they are compared on a shorter sequence.
@pytest.mark.parametrize("policy", POLICIES)
def test_rnn_all_policies_agree_with_fd_short_sequence(policy):
    args = make_problem(seed=3, steps=12)
    ref = grad(rnn_loss, wrt=tuple(PARAMS), policy="loop")(*args)
    grads = grad(rnn_loss, wrt=tuple(PARAMS), policy=policy)(*args)
    for k, (g, r) in enumerate(zip(grads, ref)):
        np.testing.assert_allclose(g, r, rtol=1e-9, atol=1e-12)
        _check_directions(rnn_loss, args, grads, k, seed=7 + k, count=1)


@pytest.mark.parametrize("policy", POLICIES)
def test_rnn_over_rows_with_running_loss(policy):
    args = make_problem(seed=1)
    grads = grad(rnn_loss_rows, wrt=tuple(range(5)), policy=policy)(*args)
    for k in range(5):
        _check_directions(rnn_loss_rows, args, grads, k, seed=300 + k, count=2)


@pytest.mark.parametrize("steps", [0, 1])
def test_rnn_short_sequences(steps):
    args = make_problem(seed=2, steps=steps)
    grads = grad(rnn_loss, wrt=(0, 1, 2, 3))(*args)
    for k in range(4):
        _check_directions(rnn_loss, args, grads, k, seed=400 + k, count=1)
    if steps == 0:
        assert not grads[0].any() and not grads[1].any() and not grads[2].any()
        np.testing.assert_allclose(grads[3], args[3])
