"""The optimizer's rewrites: folded temporaries, tape entries read in a
backward loop's header, spreads of a scalar cotangent left to broadcasting. Each
rewrite is checked twice: in the generated text, and against finite differences."""
import math

import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad
from tests.gradcheck import POLICIES
from transform import Thunk, adjoint_source, grad, vjp


def scalar_loop(x, n):
    for i in range(n):
        x = x * 0.999 + 0.001 * math.sin(x)
    return x


def element_read_in_backward(x, cs):
    for c in cs:
        x = math.sin(x) * c
    return x


def while_loop(x):
    k = 0
    while k < 5:
        x = x * 0.9 + 0.05 * math.sin(x)
        k = k + 1
    return x


def rebound_between(a, b):
    t = a * 2.0
    a = b * 3.0          # rebinds a name the first product reads: no fold across it
    return np.sum(t * a)


def tanh_sum_loop(W, b, x, n):
    s = 0.0
    for i in range(n):
        s = s + np.sum(np.tanh(W @ x + b))
    return s


def broadcast_product_sum(a, c):
    return np.sum(a * c)


def backward_loop(fn, wrt):
    text = adjoint_source(fn, wrt=wrt)
    return text, text.split("def pullback")[1]


# ---- folding single-use temporaries ---------------------------------------------------
def test_loop_forward_is_folded_to_one_statement():
    text, _ = backward_loop(scalar_loop, "x")
    forward = text.split("def pullback")[0]
    assert "x = x * 0.999 + 0.001 * math.sin(x)" in forward
    assert "t1 =" not in forward and "t3 =" not in forward


def test_comments_keep_the_three_address_primal():
    _, backward = backward_loop(scalar_loop, "x")
    assert "# x = t1 + t3" in backward
    assert "# t2 = math.sin(x)" in backward


def test_backward_sum_of_two_contributions_is_one_statement():
    _, backward = backward_loop(scalar_loop, "x")
    assert "dx = dx * 0.001 * math.cos(x) + dx * 0.999" in backward


@pytest.mark.parametrize("policy", POLICIES)
def test_no_fold_across_a_rebinding(policy):
    a, b = np.linspace(0.1, 1.0, 4), np.linspace(-1.0, 0.5, 4)
    text = adjoint_source(rebound_between, wrt=(0, 1), policy=policy)
    assert "t = a * 2.0" in text.split("def pullback")[0]
    da, db = grad(rebound_between, (0, 1), policy=policy)(a, b)
    assert_close(da, numerical_grad(rebound_between, (a, b), 0))
    assert_close(db, numerical_grad(rebound_between, (a, b), 1))


# ---- tape entries read in the backward loop's header -----------------------------------
def test_one_pop_loop_reads_the_tape_in_its_header():
    _, backward = backward_loop(scalar_loop, "x")
    assert "for x in popped(pop, len(steps1)):" in backward
    assert "pop()" not in backward


def test_target_read_by_the_backward_is_zipped_with_the_entries():
    _, backward = backward_loop(element_read_in_backward, "x")
    # ast.unparse on Python 3.10 writes the tuple target in parentheses
    assert "for c, x in zip(reversed_prefix(seq1, n1), popped(pop, None)):" in \
        backward.replace("for (c, x) in", "for c, x in")
    assert "* c" in backward
    assert "pop()" not in backward


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("n", [0, 1, 7])
def test_header_read_gradients(policy, n):
    g = grad(scalar_loop, "x", policy=policy)(0.7, n)
    assert_close(g, numerical_grad(scalar_loop, (0.7, n), 0), rtol=1e-6)
    cs = [0.9, 1.1, 0.8, 1.05, 0.7, 1.2, 0.95][:n]
    g = grad(element_read_in_backward, "x", policy=policy)(0.7, cs)
    assert_close(g, numerical_grad(element_read_in_backward, (0.7, cs), 0), rtol=1e-6)


@pytest.mark.parametrize("policy", POLICIES)
def test_while_loop_with_one_pop(policy):
    assert "popped(pop" in adjoint_source(while_loop, "x", policy=policy)
    g = grad(while_loop, policy=policy)(0.4)
    assert_close(g, numerical_grad(while_loop, (0.4,), 0), rtol=1e-6)


def test_pullback_runs_twice_after_header_reads():
    out, pb = vjp(scalar_loop, 0.7, 20, wrt=0)
    assert pb(1.0) == pb(1.0)


# ---- a scalar cotangent spread by broadcasting --------------------------------------
def test_full_sum_of_elementwise_needs_no_spread():
    _, backward = backward_loop(tanh_sum_loop, "b")
    assert "unreduce" not in backward


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("policy", POLICIES)
def test_tanh_sum_loop_gradient(policy, dtype):
    rng = np.random.default_rng(0)
    W, b, x = (rng.normal(size=s).astype(dtype) for s in ((3, 4), 3, 4))
    g = grad(tanh_sum_loop, "b", policy=policy)(W, b, x, 5)
    assert g.dtype == dtype and g.shape == b.shape
    f64 = (W.astype(float), b.astype(float), x.astype(float), 5)
    tol = 1e-4 if dtype == np.float32 else 1e-6
    assert_close(g, numerical_grad(tanh_sum_loop, f64, 1), rtol=tol, atol=tol)


@pytest.mark.parametrize("policy", POLICIES)
def test_spread_stays_when_shapes_may_differ(policy):
    a, c = np.linspace(0.1, 1.0, 3)[:, None], np.linspace(-1.0, 1.0, 4)[None, :]
    assert "unreduce" in adjoint_source(broadcast_product_sum, wrt=(0, 1), policy=policy)
    da, dc = grad(broadcast_product_sum, (0, 1), policy=policy)(a, c)
    assert da.shape == a.shape and dc.shape == c.shape
    assert_close(da, numerical_grad(broadcast_product_sum, (a, c), 0))
    assert_close(dc, numerical_grad(broadcast_product_sum, (a, c), 1))


# ---- the API around a compiled rule ----------------------------------------------------
def test_vjp_accepts_a_thunk_cotangent():
    out, pb = vjp(scalar_loop, 0.7, 10, wrt=0)
    assert pb(Thunk(lambda: 2.0))[0] == pytest.approx(2.0 * pb(1.0)[0])


def test_grad_rejects_an_int_argument_on_every_call():
    g = grad(scalar_loop, "x")
    assert isinstance(g(0.5, 3), float)
    with pytest.raises(TypeError, match="cannot differentiate with respect to 'x'"):
        g(1, 3)


# ---- the runtime's fused loop helpers ---------------------------------------------------
def test_accumulate_unbroadcast_sums_a_broadcast_cotangent():
    from runtime import accumulate_unbroadcast
    b = np.zeros(3)
    buffer = accumulate_unbroadcast(None, np.ones((4, 3)), b)
    assert buffer.shape == (3,) and np.all(buffer == 4.0)
    again = accumulate_unbroadcast(buffer, np.ones((2, 3)), b)
    assert again is buffer and np.all(buffer == 6.0)         # in place: the buffer is owned
    same = accumulate_unbroadcast(buffer, np.full(3, 0.5), b)
    assert same is buffer and np.all(buffer == 6.5)


def test_accumulate_unbroadcast_never_mutates_the_contribution():
    from runtime import accumulate_unbroadcast
    g = np.ones(3)
    buffer = accumulate_unbroadcast(None, g, np.zeros(3))
    accumulate_unbroadcast(buffer, g, np.zeros(3))
    assert np.all(g == 1.0) and buffer is not g


def test_small_full_reduction_spread_matches_broadcast():
    from runtime.helpers import unreduce
    for shape in [(), (3,), (2, 5), (40, 40)]:              # below and above the small limit
        x = np.zeros(shape, dtype=np.float32)
        out = unreduce(2.0, x)
        assert out.shape == shape and out.dtype == np.float32 and np.all(out == 2.0)


# ---- outer products batched into one matmul ----------------------------------------------
def rnn(Wh, Wx, h, xs):
    for x in xs:
        h = np.tanh(Wh @ h + Wx @ x)
    return np.sum(h * h)


def decaying_matrix(W, xs):
    s = 0.0
    for x in xs:
        s = s + np.sum(np.sin(W @ x))
        W = W * 0.9                      # W changes in the loop: no batching
    return s


def reads_its_cotangent_matrix(W, Xs):
    s = 0.0
    for X in Xs:
        s = s + np.sum(np.tanh(W @ X))   # 2-D right operands: g @ X.T per step
    return s


def vector_times_matrix(v, Ms):
    s = 0.0
    for M in Ms:
        s = s + np.sum(np.cos(v @ M))    # a 1-D left operand: the general fallback
    return s


def test_rnn_weights_are_summed_as_batched_products():
    _, backward = backward_loop(rnn, ("Wh", "Wx"))
    assert "dWh_products = MatmulLhsSum(Wh)" in backward
    assert "dWh_products.add(" in backward and "dWh = accumulate_into(dWh, dWh_products.total())" \
        in backward
    assert "matmul_lhs" not in backward


@pytest.mark.parametrize("steps", [0, 1, 3, 700])        # 700 steps flush several batches
def test_batched_rnn_gradients(steps):
    rng = np.random.default_rng(steps)
    Wh, Wx = rng.normal(size=(4, 4)) * 0.4, rng.normal(size=(4, 3)) * 0.4
    h, xs = rng.normal(size=4), list(rng.normal(size=(steps, 3)))
    dWh, dWx = grad(rnn, ("Wh", "Wx"))(Wh, Wx, h, xs)
    for k, actual in ((0, dWh), (1, dWx)):
        assert_close(actual, numerical_grad(rnn, (Wh, Wx, h, xs), k), rtol=1e-5, atol=1e-8)


def test_matrix_changed_in_the_loop_is_not_batched():
    assert "MatmulLhsSum" not in adjoint_source(decaying_matrix, "W")
    rng = np.random.default_rng(1)
    W, xs = rng.normal(size=(3, 3)), list(rng.normal(size=(5, 3)))
    assert_close(grad(decaying_matrix)(W, xs), numerical_grad(decaying_matrix, (W, xs), 0))


@pytest.mark.parametrize("fn,shapes", [(reads_its_cotangent_matrix, ((3, 4), (5, 4, 2))),
                                        (vector_times_matrix, ((4,), (6, 4, 3)))])
def test_batched_products_other_operand_shapes(fn, shapes):
    rng = np.random.default_rng(2)
    a, stack = rng.normal(size=shapes[0]) * 0.5, rng.normal(size=shapes[1])
    g = grad(fn)(a, list(stack))
    assert g.shape == a.shape
    assert_close(g, numerical_grad(fn, (a, list(stack)), 0))


def test_matmul_lhs_sum_skips_zero_and_keeps_inputs():
    from runtime import MatmulLhsSum
    a = np.zeros((2, 3))
    acc = MatmulLhsSum(a)
    assert acc.total() is None
    g, b = np.array([1.0, 2.0]), np.array([1.0, 0.0, -1.0])
    acc.add(None, b)
    acc.add(g, b)
    acc.add(g, b)
    assert_close(acc.total(), 2 * np.outer(g, b))
    assert np.all(g == [1.0, 2.0]) and np.all(b == [1.0, 0.0, -1.0])


# ---- a constant cotangent through a matrix product -----------------------------------
def sum_of_product(a, b):
    return np.sum(a @ b)


@pytest.mark.parametrize("shapes", [((3, 4), (4, 5)), ((3, 4), (4,)), ((4,), (4, 2)),
                                    ((2, 3, 4), (4, 2))])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_sum_of_product_gradients(shapes, dtype):
    rng = np.random.default_rng(3)
    a, b = (rng.normal(size=s).astype(dtype) for s in shapes)
    da, db = grad(sum_of_product, (0, 1))(a, b)
    assert da.dtype == dtype and db.dtype == dtype
    tol = 1e-4 if dtype == np.float32 else 1e-7
    f64 = (a.astype(float), b.astype(float))
    assert_close(da, numerical_grad(sum_of_product, f64, 0), rtol=tol, atol=tol)
    assert_close(db, numerical_grad(sum_of_product, f64, 1), rtol=tol, atol=tol)


@pytest.mark.parametrize("wrt,helper", [(0, "matmul_lhs_spread("), (1, "matmul_rhs_spread(")])
def test_sum_of_product_needs_no_matrix_product(wrt, helper):
    backward = adjoint_source(sum_of_product, wrt=wrt).split("def pullback")[1]
    assert helper in backward and "unreduce" not in backward


# ---- an indexed product updates one row; dead tape entries go --------------------------
def seed_loop(W, xs):
    return sum((W @ x)[0] for x in xs)


def last_row_loop(W, xs):
    s = 0.0
    for x in xs:
        s = s + np.tanh((W @ x)[-1])
    return s


def specialised_source(fn, wrt, args):
    from transform.api import compiled, signature_of, _wrt_names
    names, _ = _wrt_names(fn, wrt)
    return compiled(fn, names, "loop", signature=signature_of(args)).source


def test_indexed_product_is_a_row_update_without_a_tape():
    W, xs = np.ones((4, 4)), [np.ones(4) for _ in range(3)]
    text = specialised_source(seed_loop, 0, (W, xs))
    assert "add_row(0, " in text and "getitem_vjp" not in text
    assert "tape" not in text and "pop" not in text and "shape_only" not in text


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("fn", [seed_loop, last_row_loop])
@pytest.mark.parametrize("n", [0, 1, 5, 1500])                    # 1500 flushes batches
def test_row_update_gradients(fn, n, dtype):
    rng = np.random.default_rng(n)
    W = rng.normal(size=(3, 4)).astype(dtype)
    xs = [rng.normal(size=4).astype(dtype) for _ in range(n)]
    g = grad(fn)(W, xs)
    assert g.dtype == dtype and g.shape == W.shape
    expected = numerical_grad(fn, (W.astype(float), [x.astype(float) for x in xs]), 0)
    tol = 2e-3 if dtype == np.float32 else 1e-6
    assert_close(g, expected, rtol=tol, atol=tol)


def test_row_updates_and_outer_products_mix():
    from runtime import MatmulLhsSum
    a = np.zeros((3, 2))
    acc = MatmulLhsSum(a)
    acc.add_row(1, 2.0, np.array([1.0, -1.0]))
    acc.add(np.array([1.0, 0.0, 0.0]), np.array([3.0, 4.0]))
    acc.add_row(-1, 1.0, np.array([0.5, 0.5]))
    assert_close(acc.total(), [[3.0, 4.0], [2.0, -2.0], [0.5, 0.5]])


# ---- owned zero buffers for a specialised rule's parameters -------------------------------
def bias_and_outside(W, b, x, n):
    s = np.sum(b * b)                    # b is read outside the loop too
    for i in range(n):
        s = s + np.sum(np.tanh(W @ x + b))
    return s


def test_parameter_buffer_is_allocated_once_and_added_in_place():
    W, b, x = np.ones((3, 4)), np.ones(3), np.ones(4)
    text = specialised_source(bias_and_outside, "b", (W, b, x, 3))
    assert "db = cotangent_zeros(b)" in text and "db += " in text
    assert "accumulate_into(db" not in text


@pytest.mark.parametrize("n", [0, 1, 4])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_parameter_buffer_gradients(n, dtype):
    rng = np.random.default_rng(n)
    W, b, x = (rng.normal(size=s).astype(dtype) for s in ((3, 4), 3, 4))
    dW, db = grad(bias_and_outside, ("W", "b"))(W, b, x, n)
    assert db.dtype == dtype and dW.dtype == dtype
    f64 = (W.astype(float), b.astype(float), x.astype(float), n)
    tol = 1e-4 if dtype == np.float32 else 1e-7
    assert_close(db, numerical_grad(bias_and_outside, f64, 1), rtol=tol, atol=tol)
    assert_close(dW, numerical_grad(bias_and_outside, f64, 0), rtol=tol, atol=tol)


# ---- a loop-invariant factor applied once after the loop ----------------------------------
def bias_sum(W, b, x, n):
    s = 0.0
    for i in range(n):
        s = s + np.sum(np.tanh(W @ x + b))
    return s


def bias_decayed(W, b, x, n):
    s = 0.0
    for i in range(n):
        s = s * 0.9 + np.sum(np.tanh(W @ x + b))     # ds changes every step: no hoisting
    return s


def test_invariant_factor_multiplies_once():
    W, b, x = np.ones((3, 4)), np.ones(3), np.ones(4)
    text = specialised_source(bias_sum, "b", (W, b, x, 3))
    body = text.split("for i in reversed(steps1):")[1]
    assert "db *= ds" in body and "ds * (" not in body


def test_changing_factor_stays_in_the_loop():
    W, b, x = np.ones((3, 4)), np.ones(3), np.ones(4)
    assert "db *= " not in specialised_source(bias_decayed, "b", (W, b, x, 3))


@pytest.mark.parametrize("fn", [bias_sum, bias_decayed])
@pytest.mark.parametrize("n", [0, 1, 6])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_factor_hoisting_gradients(fn, n, dtype):
    rng = np.random.default_rng(n)
    W, b, x = (rng.normal(size=s).astype(dtype) for s in ((3, 4), 3, 4))
    db = grad(fn, "b")(W, b, x, n)
    assert db.dtype == dtype
    tol = 1e-4 if dtype == np.float32 else 1e-7
    f64 = (W.astype(float), b.astype(float), x.astype(float), n)
    assert_close(db, numerical_grad(fn, f64, 1), rtol=tol, atol=tol)


# ---- specialisations are bounded ---------------------------------------------------------
def squares(x):
    return np.sum(np.tanh(x) * x)


def test_many_shapes_get_at_most_eight_specialised_rules():
    from transform.public.cache import MAX_SPECIALISATIONS, rules_of
    g = grad(squares)
    for n in range(1, 13):
        x = np.linspace(-1.0, 1.0, n)
        assert_close(g(x), numerical_grad(squares, (x,), 0))
    specialised = [k for k in rules_of(squares) if k[4] is not None]
    assert len(specialised) == MAX_SPECIALISATIONS
