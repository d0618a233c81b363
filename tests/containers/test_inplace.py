"""In-place writes into local arrays -- out[i] = v, out[i, :] = v,
out[:, j] = v, out[mask] = v, out[i] += v, overwriting, writes reading the same
array, writes inside loops (h[t + 1] = f(h[t])), a copy of an argument written
into, and an RNN into a preallocated state array checked for Wh, Wx and xs.
Writes through an alias or a view of a local array that is read afterwards are refused
(tests/safety/test_alias_matrix.py: every alias source x every write kind)."""
import numpy as np
import pytest

from transform import grad, value_and_grad

from . import funcs as F
from .check import check_grad, policies

X = 0.7
A = np.array([0.3, -0.8, 1.1])
B = np.array([1.2, 0.4, -0.5])
A5 = np.array([0.3, -0.8, 1.1, 0.6, -0.2])

CASES = {
    "write_index_a": (F.write_index_a, (A,), 0),
    "write_row_a": (F.write_row_a, (A,), 0),
    "write_column_a": (F.write_column_a, (A,), 0),
    "write_mask_a": (F.write_mask_a, (np.array([1.0, -2.0, 3.0, -0.5]),
                                      np.array([0.5, 0.6, 0.7, 0.8])), (0, 1)),
    "write_augmented_a": (F.write_augmented_a, (A,), 0),
    "write_augmented_s": (F.write_augmented_s, (X,), 0),
    "write_overwrite_a": (F.write_overwrite_a, (A,), 0),
    "write_reads_itself_a": (F.write_reads_itself_a, (A,), 0),
    "write_in_loop_a": (F.write_in_loop_a, (A5,), 0),
    "write_recurrence_a": (F.write_recurrence_a, (A5, 0.9), (0, 1)),
    "write_accumulate_loop_a": (F.write_accumulate_loop_a, (A5,), 0),
    "write_copy_of_argument_a": (F.write_copy_of_argument_a, (A, X), (0, 1)),
}


@pytest.mark.parametrize("policy", policies())
@pytest.mark.parametrize("name", list(CASES))
def test_gradient_matches_finite_differences(name, policy):
    fn, args, wrt = CASES[name]
    check_grad(fn, args, wrt=wrt, policy=policy)


def test_overwritten_value_gets_no_gradient():
    # out = [a1^2, 0]; f = a1^2 a2: a0 was written and then overwritten
    g = grad(F.write_overwrite_a)(A)
    np.testing.assert_allclose(g, [0.0, 2 * A[1] * A[2], A[1] ** 2], rtol=1e-12)


def test_mask_write_exact():
    a, b = np.array([1.0, -2.0, 3.0, -0.5]), np.array([0.5, 0.6, 0.7, 0.8])
    da, db = grad(F.write_mask_a, wrt=(0, 1))(a, b)
    mask = a > 0
    np.testing.assert_allclose(da, np.where(mask, 0.0, 2 * a), rtol=1e-12)
    np.testing.assert_allclose(db, np.where(mask, 18 * b, 0.0), rtol=1e-12)


def test_value_is_the_primal_value():
    value, _ = value_and_grad(F.write_reads_itself_a)(A)
    assert value == pytest.approx(F.write_reads_itself_a(A), rel=1e-15)


def test_write_into_a_copy_leaves_the_argument_alone():
    a = A.copy()
    grad(F.write_copy_of_argument_a, wrt=(0, 1))(a, X)
    np.testing.assert_array_equal(a, A)


# ---- RNN into a preallocated array ---------------------------------------------------
HIDDEN, INPUT, STEPS = 5, 3, 6


def rnn_problem(seed=0):
    rng = np.random.default_rng(seed)
    Wh = rng.standard_normal((HIDDEN, HIDDEN)) * (0.8 / np.sqrt(HIDDEN))
    Wx = rng.standard_normal((HIDDEN, INPUT)) / np.sqrt(INPUT)
    xs = rng.standard_normal((STEPS, INPUT))
    return Wh, Wx, xs


@pytest.mark.parametrize("policy", policies())
def test_rnn_into_preallocated_array(policy):
    check_grad(F.rnn_preallocated, rnn_problem(), wrt=(0, 1, 2), policy=policy)


def test_rnn_preallocated_matches_rebinding_rnn():
    """The same recurrence written with a rebound h gives the same gradient."""
    Wh, Wx, xs = rnn_problem(1)
    got = grad(F.rnn_preallocated, wrt=(0, 1, 2))(Wh, Wx, xs)
    want = grad(F.rnn_rebinding, wrt=(0, 1, 2))(Wh, Wx, xs)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-10, atol=1e-12)


def test_long_rnn_into_preallocated_array():
    """200 steps under the default policy: no thunk chain grows with the trip count."""
    rng = np.random.default_rng(2)
    Wh, Wx, _ = rnn_problem(2)
    xs = rng.standard_normal((200, INPUT))
    got = grad(F.rnn_preallocated, wrt=(0, 1, 2))(Wh, Wx, xs)
    want = grad(F.rnn_rebinding, wrt=(0, 1, 2))(Wh, Wx, xs)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-10, atol=1e-12)


# ---- refused: aliasing ------------------------------------------------------------------
@pytest.mark.parametrize("policy", policies())
def test_write_through_an_alias_is_refused(policy):
    """`b = a; b[0] = x`: the gradient could not follow it, so the compiler says so."""
    from transform import TransformError
    with pytest.raises(TransformError, match="another name"):
        grad(F.write_through_alias_s, policy=policy)(X)


@pytest.mark.parametrize("policy", policies())
def test_write_through_a_view_is_refused(policy):
    """`row = out[0]; row[1] = x`: the gradient could not follow it, so the compiler says so."""
    from transform import TransformError
    with pytest.raises(TransformError, match="view"):
        grad(F.write_through_view_s, policy=policy)(X)
