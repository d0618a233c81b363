"""For loops -- over range (any start/stop/step, negative steps, counts
that are arguments), NumPy arrays (rows), lists, tuples, enumerate, zip, tuple
targets; nesting to depth 3; branches in loops and loops in branches;
augmented assignment; loop-carried state; zero-trip loops. Every test runs
under all four policies and is checked against central finite differences."""
import math

import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad
from tests.gradcheck import POLICIES, check_grad, check_vjp

policies = pytest.mark.parametrize("policy", POLICIES)


def rng(seed):
    return np.random.default_rng(seed)


# ---------------------------------------------------------------- range
def range_n(x, n):
    s = 0.0
    for i in range(n):
        s = s + x * math.sin(s + i)
    return s + x


def range_start_stop(x, a, b):
    s = x
    for i in range(a, b):
        s = s * x + i * 0.1
    return s


def range_step(x, a, b, step):
    s = 1.0
    for i in range(a, b, step):
        s = s * math.cos(x * i * 0.1) + x
    return s


def range_uses_index_power(x, n):
    s = 0.0
    for k in range(n):
        s = s + x ** k / (k + 1)
    return s


def range_over_len(x):
    s = 0.0
    for i in range(len(x)):
        s = s + x[i] * x[i - 1]
    return s


def range_negative_literal(x):
    s = 0.0
    for i in range(5, -4, -3):
        s = s + i * x * x + s * 0.5
    return s


@policies
@pytest.mark.parametrize("n", [0, 1, 2, 7], ids=lambda n: f"n{n}")
def test_range_count_is_argument(policy, n):
    check_grad(range_n, [0.7, n], policy=policy)


@policies
@pytest.mark.parametrize("a,b", [(2, 6), (-3, 2), (4, 4), (5, 1)], ids=str)
def test_range_start_stop(policy, a, b):
    check_grad(range_start_stop, [0.9, a, b], policy=policy)


@policies
@pytest.mark.parametrize("a,b,step", [(0, 10, 3), (1, 2, 5), (10, 0, -1), (7, -5, -4),
                                      (0, 5, -1), (3, 3, -2), (-2, -10, -3)], ids=str)
def test_range_step(policy, a, b, step):
    check_grad(range_step, [0.6, a, b, step], policy=policy)


@policies
@pytest.mark.parametrize("n", [0, 1, 6])
def test_range_index_as_exponent(policy, n):
    check_grad(range_uses_index_power, [1.3, n], policy=policy)


@policies
@pytest.mark.parametrize("size", [1, 5])
def test_range_over_len_indexing(policy, size):
    check_grad(range_over_len, [rng(1).normal(size=size)], policy=policy)


@policies
def test_range_negative_literal_step(policy):
    check_grad(range_negative_literal, [0.8], policy=policy)


# ---------------------------------------------------------------- arrays, lists, tuples
def rows_sum(X, w):
    s = 0.0
    for row in X:
        s = s + np.sum(np.sin(row * w))
    return s


def rows_carried(X, h):
    for row in X:
        h = np.tanh(row + 0.5 * h)
    return np.sum(h * h)


def rows_of_3d(T, W):
    acc = np.zeros(2)
    for M in T:
        acc = acc + M @ W[0]
    return np.sum(acc ** 2)


def over_list_literal(x, y):
    s = 1.0
    for v in [x, y, x * y, 2.0]:
        s = s * v + math.sin(v)
    return s


def over_tuple_literal(x, y):
    s = 0.0
    for v in (x, y, x - y):
        s = s + v * v * s + v
    return s


def over_list_argument(x, coeffs):
    s = 0.0
    for c in coeffs:
        s = s * x + c
    return s


def over_vector(x, w):
    s = 0.0
    for xi in x:
        s = s + xi * w + xi * xi
    return s


@policies
@pytest.mark.parametrize("n", [0, 1, 4])
def test_rows_of_array(policy, n):
    check_grad(rows_sum, [rng(2).normal(size=(n, 3)), rng(3).normal(size=3)], policy=policy)


@policies
@pytest.mark.parametrize("n", [0, 1, 5])
def test_rows_of_array_loop_carried(policy, n):
    check_grad(rows_carried, [rng(2).normal(size=(n, 3)), rng(3).normal(size=3)],
               policy=policy)


@policies
@pytest.mark.parametrize("n", [1, 3])
def test_rows_of_3d_array(policy, n):
    check_grad(rows_of_3d, [rng(4).normal(size=(n, 2, 3)), rng(5).normal(size=(2, 3))],
               policy=policy)


@policies
def test_over_list_literal(policy):
    check_grad(over_list_literal, [0.7, -1.2], policy=policy)


@policies
def test_over_tuple_literal(policy):
    check_grad(over_tuple_literal, [0.7, -0.4], policy=policy)


@policies
@pytest.mark.parametrize("coeffs", [[], [2.0], [1.0, -3.0, 0.5, 2.0], (1.0, 2.0)], ids=str)
def test_over_list_or_tuple_argument(policy, coeffs):
    check_grad(over_list_argument, [1.3, coeffs], wrt=(0,), policy=policy)


@policies
@pytest.mark.parametrize("n", [0, 1, 4])
def test_over_vector_elements(policy, n):
    check_grad(over_vector, [rng(6).normal(size=n), 0.8], policy=policy)


# ---------------------------------------------------------------- enumerate, zip, tuple targets
def enumerate_rows(X, w):
    s = 0.0
    for i, row in enumerate(X):
        s = s + (i + 1) * np.sum(row * w) ** 2
    return s


def enumerate_start(X, w):
    s = 0.0
    for i, row in enumerate(X, 2):
        s = s + i * np.sum(np.tanh(row * w))
    return s


def enumerate_list(x, y):
    s = 0.0
    for k, v in enumerate([x, y, x * y]):
        s = s + k * v * v + s * v
    return s


def zip_rows(X, Y, w):
    s = 0.0
    for a, b in zip(X, Y):
        s = s + np.sum(a * b * w)
    return s


def zip_three(X, Y, Z):
    s = 0.0
    for a, b, c in zip(X, Y, Z):
        s = s + np.sum(a * b) * np.sum(c)
    return s


def zip_unequal(x, y):
    s = 0.0
    for a, b in zip(x, y):
        s = s + a * b * b
    return s


def enumerate_zip_nested_target(X, Y):
    s = 0.0
    for i, (a, b) in enumerate(zip(X, Y)):
        s = s + i * np.sum(a * np.cos(b))
    return s


def tuple_target_pairs(x, y):
    s = 0.0
    for a, b in [(x, y), (y, x * x), (1.0, x)]:
        s = s + a * b + s * a
    return s


def tuple_target_rows(P):
    s = 0.0
    for a, b in P:
        s = s + a * a * b
    return s


@policies
@pytest.mark.parametrize("n", [0, 1, 4])
def test_enumerate_rows(policy, n):
    check_grad(enumerate_rows, [rng(7).normal(size=(n, 3)), rng(8).normal(size=3)],
               policy=policy)


@policies
@pytest.mark.parametrize("n", [1, 3])
def test_enumerate_with_start(policy, n):
    check_grad(enumerate_start, [rng(7).normal(size=(n, 3)), rng(8).normal(size=3)],
               policy=policy)


@policies
def test_enumerate_list(policy):
    check_grad(enumerate_list, [0.6, -0.9], policy=policy)


@policies
@pytest.mark.parametrize("n", [0, 1, 4])
def test_zip_rows(policy, n):
    check_grad(zip_rows, [rng(9).normal(size=(n, 2)), rng(10).normal(size=(n, 2)),
                          rng(11).normal(size=2)], policy=policy)


@policies
def test_zip_three(policy):
    check_grad(zip_three, [rng(9).normal(size=(3, 2)), rng(10).normal(size=(3, 2)),
                           rng(11).normal(size=(3, 4))], policy=policy)


@policies
@pytest.mark.parametrize("nx,ny", [(3, 5), (5, 2), (0, 3)], ids=str)
def test_zip_unequal_lengths(policy, nx, ny):
    check_grad(zip_unequal, [rng(12).normal(size=nx), rng(13).normal(size=ny)],
               policy=policy)


def zip_one_differentiated(x, ws):
    s = 0.0
    for a, w in zip(x, ws):
        s = s + w * a * a
    return s


def zip_state_carried(x, ws):
    h = 1.0
    for a, w in zip(x, ws):
        h = np.tanh(w * h + a)
    return h


@policies
@pytest.mark.parametrize("f", [zip_one_differentiated, zip_state_carried],
                         ids=lambda f: f.__name__)
@pytest.mark.parametrize("wrt", [(0,), (1,)], ids=["x", "ws"])
def test_zip_with_one_sequence_differentiated(policy, f, wrt):
    """The backward walk over zip(...) pairs each step with its own entries of both
    sequences, also when only one of them carries a derivative (distinct weights, so a
    walk run forwards gives a different gradient)."""
    x, ws = np.array([0.3, -1.1, 0.8, 2.0]), np.array([1.5, -0.4, 0.9, 0.2])
    check_grad(f, [x, ws], wrt=wrt, policy=policy)
    check_grad(f, [x, list(ws)], wrt=(0,), policy=policy)


def tuple_target_constant_pairs(x, pairs):
    s = 0.0
    for a, b in pairs:
        s = s + a * x * x + b * x
    return s


@policies
@pytest.mark.parametrize("pairs", [[], [(1.0, 2.0)], [(1.0, 2.0), (-0.5, 3.0), (2.0, 0.1)]],
                         ids=len)
def test_tuple_target_over_constant_pairs(policy, pairs):
    check_grad(tuple_target_constant_pairs, [0.8, pairs], wrt=(0,), policy=policy)


@policies
@pytest.mark.parametrize("n", [1, 3])
def test_enumerate_zip_nested_tuple_target(policy, n):
    check_grad(enumerate_zip_nested_target, [rng(9).normal(size=(n, 2)),
                                             rng(10).normal(size=(n, 2))], policy=policy)


@policies
def test_tuple_target_over_list_of_pairs(policy):
    check_grad(tuple_target_pairs, [0.7, 1.1], policy=policy)


@policies
@pytest.mark.parametrize("n", [0, 1, 3])
def test_tuple_target_over_rows(policy, n):
    check_grad(tuple_target_rows, [rng(14).normal(size=(n, 2))], policy=policy)


# ---------------------------------------------------------------- nesting
def nested2(x, n, m):
    s = 0.0
    for i in range(n):
        for j in range(m):
            s = s + x * math.sin(s + i - j)
    return s


def nested3(x, n):
    s = x
    for i in range(n):
        for j in range(i + 1):
            for k in range(2):
                s = s + 0.1 * math.cos(s * x + i - j + k)
    return s


def nested3_arrays(W, X):
    s = 0.0
    for row in X:
        for j in range(2):
            for w in W:
                s = s + np.sum(np.tanh(w * row + j)) * 0.3
    return s


def nested_inner_depends_on_outer(x, n):
    s = 1.0
    for i in range(n):
        t = s
        for j in range(i):
            t = t * x + j
        s = s + t * 0.5
    return s


@policies
@pytest.mark.parametrize("n,m", [(0, 3), (3, 0), (1, 1), (3, 4)], ids=str)
def test_nested_two_levels(policy, n, m):
    check_grad(nested2, [0.4, n, m], policy=policy)


@policies
@pytest.mark.parametrize("n", [0, 1, 3])
def test_nested_three_levels(policy, n):
    check_grad(nested3, [0.4, n], policy=policy)


@policies
@pytest.mark.parametrize("n", [1, 2])
def test_nested_three_levels_arrays(policy, n):
    check_grad(nested3_arrays, [rng(15).normal(size=(2, 3)), rng(16).normal(size=(n, 3))],
               policy=policy)


@policies
@pytest.mark.parametrize("n", [0, 1, 4])
def test_nested_inner_trip_depends_on_outer(policy, n):
    check_grad(nested_inner_depends_on_outer, [0.9, n], policy=policy)


# ---------------------------------------------------------------- branches and loops
def branch_in_loop(x, n):
    s = 0.0
    for i in range(n):
        if i % 2 == 0:
            s = s + x * i
        elif s > 1.0:
            s = s * 0.5
        else:
            s = s + math.sin(x * s)
    return s


def branch_on_value_in_loop(x, n):
    s = x
    for i in range(n):
        if s > 1.0:
            s = s * 0.6
        else:
            s = s * s + x
    return s


def loop_in_branch(x, n, flag):
    s = x
    if flag:
        for i in range(n):
            s = s * math.cos(s) + x
    else:
        s = s * 3.0
        for i in range(n):
            s = s - 0.1 * s * s
    return s


def array_branch_in_loop(W, X):
    s = 0.0
    for row in X:
        h = W @ row
        if np.sum(h) > 0:
            s = s + np.sum(h * h)
        else:
            s = s - np.sum(np.sin(h))
    return s


@policies
@pytest.mark.parametrize("n", [0, 1, 6])
def test_branch_in_loop(policy, n):
    check_grad(branch_in_loop, [0.8, n], policy=policy)


@policies
@pytest.mark.parametrize("x", [0.3, 1.7])
def test_branch_on_carried_value_in_loop(policy, x):
    check_grad(branch_on_value_in_loop, [x, 5], policy=policy)


@policies
@pytest.mark.parametrize("flag", [True, False])
@pytest.mark.parametrize("n", [0, 3])
def test_loop_in_branch(policy, flag, n):
    check_grad(loop_in_branch, [0.5, n, flag], policy=policy)


@policies
def test_array_branch_in_loop_both_sides(policy):
    X = np.array([[1.0, 0.5], [-1.0, -0.5], [0.3, 0.2], [-2.0, 0.1]])
    check_grad(array_branch_in_loop, [rng(17).uniform(0.2, 1.0, size=(3, 2)), X],
               policy=policy)


# ---------------------------------------------------------------- augmented assignment
def aug_add(x, n):
    s = 0.0
    for i in range(n):
        s += x * x
    return s


def aug_mul(x, y, n):
    s = 1.0
    for i in range(n):
        s *= y
        s += x
    return s


def aug_sub_div(x, y, n):
    s = x
    for i in range(n):
        s -= y * 0.3
        s /= 1.0 + y * y
    return s


def aug_array(W, X):
    acc = np.zeros(W.shape[0])
    for row in X:
        acc += W @ row
        acc *= 0.9
    return np.sum(acc * acc)


def aug_straightline(x, y):
    s = x
    s += y
    s *= x
    s -= y * y
    s /= x + 2.0
    return s


@policies
@pytest.mark.parametrize("n", [0, 1, 4])
def test_aug_add(policy, n):
    check_grad(aug_add, [0.7, n], policy=policy)


@policies
@pytest.mark.parametrize("n", [0, 1, 4])
def test_aug_mul(policy, n):
    check_grad(aug_mul, [0.7, 1.1, n], policy=policy)


@policies
@pytest.mark.parametrize("n", [0, 1, 4])
def test_aug_sub_div(policy, n):
    check_grad(aug_sub_div, [0.7, 0.4, n], policy=policy)


@policies
@pytest.mark.parametrize("n", [0, 3])
def test_aug_array(policy, n):
    check_grad(aug_array, [rng(18).normal(size=(2, 3)), rng(19).normal(size=(n, 3))],
               policy=policy)


@policies
def test_aug_straightline(policy):
    check_grad(aug_straightline, [0.7, 0.4], policy=policy)


# ---------------------------------------------------------------- state and overwrites
def rnn_small(Wh, Wx, b, h, x):
    for t in range(x.shape[0]):
        h = np.tanh(Wh @ h + Wx @ x[t] + b)
    return np.sum(h)


def overwritten_every_iteration(x, n):
    s = 0.0
    t = x
    for i in range(n):
        t = x * (i + 1)
        u = math.sin(t)
        s = s + u * t
    return s + t


def swap_state(x, y, n):
    a = x
    b = y
    for i in range(n):
        a, b = b, a * b + 0.1
    return a + 2.0 * b


def several_carried(x, n):
    a = x
    b = 1.0
    c = 0.0
    for i in range(n):
        c = c + a * b
        b = b * 0.9 + a
        a = math.tanh(a + c)
    return a + b + c


def param_reassigned_in_loop(x, w, n):
    for i in range(n):
        x = x * w + 1.0
        w = w * 0.5
    return x * w


@policies
@pytest.mark.parametrize("T", [0, 1, 6])
def test_loop_carried_tanh_state(policy, T):
    r = rng(20)
    check_grad(rnn_small, [0.5 * r.normal(size=(4, 4)), 0.5 * r.normal(size=(4, 3)),
                           r.normal(size=4), r.normal(size=4), r.normal(size=(T, 3))],
               policy=policy)


@policies
@pytest.mark.parametrize("n", [0, 1, 5])
def test_values_overwritten_every_iteration(policy, n):
    check_grad(overwritten_every_iteration, [0.3, n], policy=policy)


@policies
@pytest.mark.parametrize("n", [0, 1, 2, 5])
def test_tuple_swap_state(policy, n):
    check_grad(swap_state, [0.7, 1.2, n], policy=policy)


@policies
@pytest.mark.parametrize("n", [0, 1, 5])
def test_several_carried_values(policy, n):
    check_grad(several_carried, [0.3, n], policy=policy)


@policies
@pytest.mark.parametrize("n", [0, 1, 4])
def test_parameters_reassigned_in_loop(policy, n):
    check_grad(param_reassigned_in_loop, [0.3, 1.4, n], policy=policy)


# ---------------------------------------------------------------- vector outputs
def loop_vector_output(x, n):
    y = x
    for i in range(n):
        y = np.sin(y) + x * i
    return y


@policies
@pytest.mark.parametrize("n", [0, 3])
def test_loop_with_vector_output_vjp(policy, n):
    check_vjp(loop_vector_output, [rng(21).normal(size=4), n], wrt=(0,), policy=policy)


# ---------------------------------------------------------------- repeated pullback
def loop_for_repeat(x, n):
    s = 0.0
    for i in range(n):
        s = s + math.sin(x * s + i)
    return s


@policies
def test_pullback_of_loop_called_twice(policy):
    from transform import vjp
    out, pb = vjp(loop_for_repeat, 0.4, 5, wrt=0, policy=policy)
    (g1,) = pb(1.0)
    (g2,) = pb(2.0)
    assert_close(g1, numerical_grad(loop_for_repeat, (0.4, 5), 0))
    assert g2 == pytest.approx(2 * g1)


# ---------------------------------------------------------------- policies agree
def agreement_fn(W, X, n):
    s = 0.0
    for k in range(n):
        for i, row in enumerate(X):
            if i % 2 == 0:
                s = s + np.sum(np.tanh(W @ row)) * (k + 1)
            else:
                s = s * 0.9
    return s


def test_all_policies_agree():
    """Every policy against finite differences, and the policies with each other to
    rounding (the same sums in possibly another order)."""
    W, X = rng(22).normal(size=(3, 2)), rng(23).normal(size=(4, 2))
    results = [check_grad(agreement_fn, [W, X, 3], wrt=(0, 1), policy=p) for p in POLICIES]
    for other in results[1:]:
        for a, b in zip(results[0], other):
            np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)


# ---------------------------------------------------------------- a million iterations
def million(x, n):
    for i in range(n):
        x = x * 0.999 + 0.001 * math.sin(x)
    return x


def test_million_iteration_scalar_loop_no_recursion_error():
    import sys
    from transform import value_and_grad
    assert sys.getrecursionlimit() <= 10_000
    n = 1_000_000
    x0 = 0.7
    value, g = value_and_grad(million, policy="loop")(x0, n)
    x = x0
    d = 1.0
    for _ in range(n):
        d *= 0.999 + 0.001 * math.cos(x)
        x = x * 0.999 + 0.001 * math.sin(x)
    assert value == x
    assert type(g) is float
    assert abs(g - d) <= 1e-9 * abs(d)


# ---------------------------------------------------------------- differentiating a list argument
def over_list_of_arrays(xs, w):
    s = 0.0
    for x in xs:
        s = s + np.sum(np.sin(x) * w) + np.sum(x * x)
    return s


def _list_grad_expected(xs, w):
    return [np.cos(x) * w + 2 * x for x in xs]


@policies
@pytest.mark.parametrize("shapes", [[(3,), (3,)], [(3,)], []], ids=str)
def test_gradient_wrt_list_of_same_shape_arrays(policy, shapes):
    from transform import grad
    xs = [rng(30 + k).normal(size=s) for k, s in enumerate(shapes)]
    g = grad(over_list_of_arrays, wrt=0, policy=policy)(xs, 0.7)
    assert isinstance(g, list) and len(g) == len(xs)
    for gi, ei in zip(g, _list_grad_expected(xs, 0.7)):
        np.testing.assert_allclose(gi, ei, rtol=1e-12)


@policies
def test_gradient_wrt_list_of_differently_shaped_arrays(policy):
    from transform import grad
    xs = [rng(40).normal(size=(2, 3)), rng(41).normal(size=3), rng(42).normal(size=1)]
    g = grad(over_list_of_arrays, wrt=0, policy=policy)(xs, 0.7)
    assert isinstance(g, list) and len(g) == 3
    for gi, ei in zip(g, _list_grad_expected(xs, 0.7)):
        assert gi.shape == ei.shape
        np.testing.assert_allclose(gi, ei, rtol=1e-12)


@policies
def test_gradient_wrt_tuple_of_floats(policy):
    from transform import grad
    g = grad(over_list_argument_differentiated, wrt=0, policy=policy)((1.0, 2.0, -0.5), 0.3)
    assert isinstance(g, tuple) and len(g) == 3
    for gi, c in zip(g, (1.0, 2.0, -0.5)):
        assert type(gi) is float
        assert gi == pytest.approx(2 * c * 0.3 + math.cos(c))


def over_list_argument_differentiated(cs, w):
    s = 0.0
    for c in cs:
        s = s + c * c * w + math.sin(c)
    return s
