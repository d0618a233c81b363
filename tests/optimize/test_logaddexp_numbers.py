"""np.logaddexp with a number literal as whole-array ufuncs (issue 19;
transform/lowering/logaddexp_numbers.py, runtime/rules/elementwise_helpers.py).

Where one argument of `np.logaddexp(p, q)` is an int or float literal, the generated code
calls `logaddexp_number(p, q)`: NumPy's formula as whole-array ufuncs for a float32 or
float64 array of 256 elements or more, np.logaddexp itself otherwise. Gradients against
finite differences under every policy (the fast path, the small-array path, the literal
first or second, broadcasting, a loop and a branch, and the programs the rewrite must leave
alone); behaviour tests read the specialised rule and compare the helper's values bit for
bit with the formula (fast path) or with np.logaddexp (every other path).
"""
import numpy as np
import pytest

from runtime.rules.elementwise_helpers import WHOLE_ARRAY_MIN, logaddexp_number
from tests.gradcheck import POLICIES, check_function, rng
from transform import grad, value_and_grad, vjp
from transform.api import _wrt_names, compiled, signature_of

ROWS = 300                      # above WHOLE_ARRAY_MIN: the fast path


def logistic(w, X, y):
    z = X @ w
    return np.mean(np.logaddexp(0, -y * z)) + 0.1 * (w @ w)


def literal_second(w, X, y):
    return np.sum(np.logaddexp(X @ w, 1.5) * y)


def float_first(w, X, y):
    return np.sum(np.sin(np.logaddexp(2.0, X @ w - y)))


def negative_literal(w, X, y):
    return np.sum(np.sin(np.logaddexp(-2, X @ w - y)))    # -2 is named before the rewrite


def broadcast_matrix(w, X, y):
    return np.sum(np.logaddexp(0.0, X * w) ** 2)


def strided_view(w, X, y):
    V = X.T[1]                                          # a strided view of X, 300 elements
    return np.sum(np.logaddexp(V, 0.25) * w[1]) + np.sum(V * y)


def in_loop_and_branch(w, X, y):
    s = 0.0
    for k in range(3):
        z = X @ w * (k + 1.0)
        if k > 0:
            s = s + np.sum(np.logaddexp(0, z) * y)
        else:
            s = s - np.sum(np.logaddexp(z, 0.5))
    return s


def helpers_and_comprehension(w, X, y):
    def soft(z):
        return np.logaddexp(0, z)
    shifted = lambda z: np.mean(np.logaddexp(z, 1.0))      # noqa: E731
    z = X @ w
    parts = [np.mean(np.logaddexp(0, X[:, k] * w[k])) for k in range(2)]
    return np.mean(soft(z) * y) + shifted(z) + np.sum(parts)     # means: FD stays exact


def small_array(w, X, y):
    return np.sum(np.logaddexp(0, w * 3.0))            # 4 elements: np.logaddexp's loop


def scalar_argument(w, X, y):
    return np.logaddexp(0, np.sum(X @ w) * 0.01)


def two_arrays(w, X, y):
    return np.sum(np.logaddexp(X @ w, y))


def number_in_a_name(w, X, y):
    c = 0.0
    return np.sum(np.logaddexp(c, X @ w))


def bool_literal(w, X, y):
    return np.sum(np.logaddexp(True, X @ w))


def huge_literal(w, X, y):
    return np.sum(np.logaddexp(1e300, X @ w) - 1e300) + np.sum(w)


def make(fn):
    r = rng("logaddexp_numbers", fn.__name__)
    w, X = r.normal(size=4), r.normal(size=(ROWS, 4)) * 2.0
    y = np.where(r.normal(size=ROWS) > 0, 1.0, -1.0)
    if fn is broadcast_matrix:
        X = r.normal(size=(80, 4))                       # 320 elements
    return [w, X, y]


APPLIES = [logistic, literal_second, float_first, broadcast_matrix, strided_view,
           in_loop_and_branch, helpers_and_comprehension, small_array, scalar_argument]
KEEPS = [negative_literal, two_arrays, number_in_a_name, bool_literal, huge_literal]


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn", APPLIES + KEEPS[:-1], ids=lambda f: f.__name__)
def test_gradients_match_finite_differences(fn, policy):
    check_function(fn, make(fn), (0, 1), policy)


def source(fn, args, wrt=(0, 1)):
    names, _ = _wrt_names(fn, wrt)
    return compiled(fn, names, "loop", signature=signature_of(args)).source


@pytest.mark.parametrize("fn", APPLIES, ids=lambda f: f.__name__)
def test_a_number_literal_argument_takes_the_helper(fn):
    forward = source(fn, make(fn)).split("def pullback")[0]
    assert "logaddexp_number(" in forward and "np.logaddexp(" not in forward


@pytest.mark.parametrize("fn", KEEPS, ids=lambda f: f.__name__)
def test_anything_else_keeps_np_logaddexp(fn):
    text = source(fn, make(fn), (0,))
    assert "logaddexp_number" not in text and "np.logaddexp(" in text


@pytest.mark.parametrize("fn,count", [(in_loop_and_branch, 2), (helpers_and_comprehension, 3)],
                         ids=["loop-and-branch", "helpers"])
def test_every_block_takes_it(fn, count):
    forward = source(fn, make(fn)).split("def pullback")[0]
    assert forward.count("logaddexp_number(") == count


def formula(a, c):
    return np.maximum(a, c) + np.log1p(np.exp(-np.abs(a - c)))


def softplus(w, X):
    return np.logaddexp(0, X @ w)


@pytest.mark.parametrize("rows", [ROWS, 4])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_the_forward_computes_the_formula_from_the_threshold_on(rows, dtype):
    """The compiled forward's values are the formula's bits (not np.logaddexp's loop) for
    an array of WHOLE_ARRAY_MIN elements or more, np.logaddexp's below."""
    w, X, _ = make(logistic)
    w, X = w.astype(dtype), X[:rows].astype(dtype)
    out, pullback = vjp(softplus, w, X, wrt=(0,))
    z = X @ w
    assert out.dtype == dtype and pullback(np.ones_like(out))[0].dtype == dtype
    if rows >= WHOLE_ARRAY_MIN:
        np.testing.assert_array_equal(out, formula(z, 0))
        assert not np.array_equal(out, np.logaddexp(0, z))
    else:
        np.testing.assert_array_equal(out, np.logaddexp(0, z))


def test_the_value_is_the_users_up_to_rounding():
    args = make(logistic)
    value, _ = value_and_grad(logistic, (0, 1))(*args)
    assert value == pytest.approx(logistic(*args), rel=1e-14)


def test_float32_stays_float32_and_close():
    w, X, y = make(logistic)
    args32 = [a.astype(np.float32) for a in (w, X, y)]
    value, grads = value_and_grad(logistic, (0, 1))(*args32)
    want_value, want = value_and_grad(logistic, (0, 1))(w, X, y)
    assert value.dtype == np.float32 and all(g.dtype == np.float32 for g in grads)
    assert value == pytest.approx(want_value, rel=1e-5)
    for g, v in zip(grads, want):
        np.testing.assert_allclose(g, v, rtol=1e-3, atol=1e-5)
    g_only = grad(logistic, 0)(*args32)
    np.testing.assert_array_equal(g_only, grads[0])


# ---- the helper itself --------------------------------------------------------------------
def values(n, dtype, key="values"):
    return (rng("logaddexp_numbers", key, n).normal(size=n) * 4).astype(dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("c", [0, 1.5, -2, -0.0])
def test_from_the_threshold_on_it_is_the_formula(dtype, c):
    a = values(WHOLE_ARRAY_MIN, dtype)
    for got in (logaddexp_number(c, a), logaddexp_number(a, c)):
        want = formula(a, c)
        assert got.dtype == dtype
        np.testing.assert_array_equal(got, want)
        np.testing.assert_allclose(got, np.logaddexp(c, a), rtol=4 * np.finfo(dtype).eps)
    assert not np.array_equal(logaddexp_number(c, a), np.logaddexp(c, a))  # another rounding


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_below_the_threshold_it_is_numpys(dtype):
    a = values(WHOLE_ARRAY_MIN - 1, dtype)
    np.testing.assert_array_equal(logaddexp_number(0, a), np.logaddexp(0, a))
    assert not np.array_equal(formula(a, 0), np.logaddexp(0, a))


@pytest.mark.parametrize("x,y", [
    (0, values(400, np.float16)), (values(400, np.int64), 0.5), (True, values(400, np.float64)),
    (0.5, 2.0), (0, np.float64(1.25)), (values(400, np.float64), values(400, np.float64, "b")),
], ids=["float16", "int64", "bool", "floats", "numpy-scalar", "two-arrays"])
def test_every_other_argument_is_numpys(x, y):
    got = logaddexp_number(x, y)
    want = np.logaddexp(x, y)
    assert np.asarray(got).dtype == np.asarray(want).dtype
    np.testing.assert_array_equal(got, want)


def test_two_arrays_with_equal_infinities_are_numpys():
    a = values(400, np.float64)
    a[:3] = np.inf, -np.inf, np.nan
    with np.errstate(invalid="ignore"):
        got, want = logaddexp_number(a, a.copy()), np.logaddexp(a, a)
    np.testing.assert_array_equal(got, want)
    assert got[0] == np.inf and got[1] == -np.inf


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("c", [0, 2.5, np.inf, -np.inf])
def test_edges_are_numpys(dtype, c):
    a = values(WHOLE_ARRAY_MIN, dtype)
    a[:6] = 0.0, -0.0, np.inf, -np.inf, np.nan, 2.5
    with np.errstate(invalid="ignore"):
        want, got = np.logaddexp(c, a), logaddexp_number(c, a)
    np.testing.assert_array_equal(got[:6], want[:6])


def test_the_argument_is_not_written_and_the_result_is_fresh():
    a = values(WHOLE_ARRAY_MIN, np.float64)
    a.setflags(write=False)
    before = a.copy()
    got = logaddexp_number(0, a)
    np.testing.assert_array_equal(a, before)
    assert got.flags.owndata and not np.shares_memory(got, a)
