"""np.mean's cotangent is divided while it is a scalar (`unreduce(g / reduction_size(a,
axis), a, axis, keepdims)`), and `reduction_size` is pure, so the fold pass puts the
spread next to the expression that consumes it and DropSpreads leaves a full mean's
spread to broadcasting: `dz = dt9 / reduction_size(t4, None) * np.exp(t3 - t4) * t2`
instead of a full array built, divided, then multiplied. Gradients against finite
differences under every policy, where the spread must stay (an axis, keepdims, a
consumer of another shape, a matrix product, a loop, a branch) and float32; behaviour:
the generated source and the ufuncs the gradient runs.
"""
import numpy as np
import pytest

from runtime.helpers import reduction_size
from tests.gradcheck import POLICIES, check_function, rng
from tests.optimize.test_negations import ufuncs_of_gradient
from transform import grad
from transform.api import _wrt_names, compiled, signature_of


def logistic(w, b, X, y, lam):
    z = X @ w + b
    return np.mean(np.logaddexp(0, -y * z)) + 0.5 * lam * (w @ w)


def mean_of_sines(x):
    return np.mean(np.sin(x)) * 3.0


def mean_over_axis(x):
    return np.sum(np.mean(np.tanh(x), axis=1) ** 2)


def mean_keepdims(x):
    return np.sum(np.exp(x - np.mean(x, axis=0, keepdims=True)))


def mean_times_other_shape(x, y):
    return np.sum(np.mean(x) * y)              # the spread meets y's shape: kept


def mean_of_product(W, x):
    return np.mean(W @ x)                      # a matrix product: row sums, no product


def mean_in_loop(x, n):
    s = 0.0
    for _ in range(n):
        s = s + np.mean(np.cos(x * s + 1.0))
    return s


def mean_in_branch(x, c):
    if c > 0:
        return np.mean(x * x) * c
    return np.mean(np.sin(x))


def mean_of_list(a, b):
    return np.mean([a, b]) + a * b


def mean_read_twice(x):
    return np.mean(x) * np.sum(x * x)


def complex_mean(x):
    return np.real(np.mean(x * (1 + 2j)) * (2 - 1j))     # np.mean takes complex values


CASES = [
    (logistic, lambda r: [r.normal(size=4), 0.3, r.normal(size=(6, 4)),
                          np.where(r.normal(size=6) > 0, 1.0, -1.0), 0.01], (0, 1, 4)),
    (mean_of_sines, lambda r: [r.normal(size=(3, 4))], (0,)),
    (mean_over_axis, lambda r: [r.normal(size=(3, 5))], (0,)),
    (mean_keepdims, lambda r: [r.normal(size=(4, 2))], (0,)),
    (mean_times_other_shape, lambda r: [r.normal(size=3), r.normal(size=5)], (0, 1)),
    (mean_of_product, lambda r: [r.normal(size=(3, 4)), r.normal(size=4)], (0, 1)),
    (mean_in_loop, lambda r: [r.normal(size=5), 3], (0,)),
    (mean_in_branch, lambda r: [r.normal(size=4), 0.7], (0, 1)),
    (mean_in_branch, lambda r: [r.normal(size=4), -0.7], (0,)),
    (mean_of_list, lambda r: [0.4, -1.3], (0, 1)),
    (mean_read_twice, lambda r: [r.normal(size=4)], (0,)),
    (complex_mean, lambda r: [r.normal(size=3)], (0,)),
]


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn,make,wrt", CASES, ids=lambda c: getattr(c, "__name__", ""))
def test_gradients_match_finite_differences(fn, make, wrt, policy):
    check_function(fn, make(rng("mean_spreads", fn.__name__)), wrt, policy)


def pullback_source(fn, args, wrt):
    names, _ = _wrt_names(fn, wrt)
    source = compiled(fn, names, "loop", signature=signature_of(args)).source
    return source[source.index("def pullback"):]


def logistic_args(dtype=np.float64, n=20):
    r = rng("mean_spreads", "logistic data")
    X = r.normal(size=(n, 3)).astype(dtype)
    y = np.where(r.normal(size=n) > 0, 1.0, -1.0).astype(dtype)
    return [r.normal(size=3).astype(dtype), dtype(0.1), X, y, 1e-3]


def test_a_mean_cotangent_adds_with_plus():
    # np.mean is numeric: its argument's cotangent is an array, added with `+=`, not
    # through the container-aware accum helpers
    source = pullback_source(mean_read_twice, [np.ones(3)], (0,))
    assert "dx += unreduce(" in source and "accum" not in source


def test_a_full_mean_spreads_by_broadcasting():
    source = pullback_source(logistic, logistic_args(), (0, 1))
    assert "unreduce(" not in source
    assert "/ reduction_size(t4, None) * np.exp(" in source


def test_the_constant_argument_of_logaddexp_gets_no_cotangent():
    calls, _ = ufuncs_of_gradient(logistic, logistic_args(), (0, 1))
    assert calls.count("exp") == 1             # x2's `g * np.exp(x2 - ans)` only
    assert calls.count("logaddexp") == 1       # the forward's, computed once


class Sized(np.ndarray):
    """An array recording, for every ufunc applied to it, its name and how many of its
    inputs are arrays of more than one element (results stay Sized)."""
    calls = []

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        Sized.calls.append((ufunc.__name__, sum(np.size(i) > 1 for i in inputs)))
        inputs = [np.asarray(i) if isinstance(i, Sized) else i for i in inputs]
        if "out" in kwargs:
            kwargs["out"] = tuple(np.asarray(o) for o in kwargs["out"])
        out = super().__array_ufunc__(ufunc, method, *inputs, **kwargs)
        return out.view(Sized) if type(out) is np.ndarray else out


@pytest.mark.parametrize("n", [9, 3000])        # np.full below 1024 entries, a view above
def test_the_cotangent_meets_the_array_as_a_scalar(n):
    x = rng("mean_spreads", n).normal(size=n)
    rule = compiled(mean_of_sines, ("x",), "loop", signature=signature_of([x]))
    _, pullback = rule.rrule(x.view(Sized))
    Sized.calls = []
    (dx,) = pullback(1.0)
    assert Sized.calls == [("cos", 1), ("multiply", 1)]     # ((g * 3.0) / n) * np.cos(x)
    np.testing.assert_allclose(dx, 3.0 * np.cos(x) / n, rtol=1e-14)


@pytest.mark.parametrize("fn,args,wrt,spread", [
    (mean_over_axis, [np.ones((3, 5))], (0,), "unreduce("),
    (mean_times_other_shape, [np.ones(3), np.ones(5)], (0, 1), "unreduce("),
    (mean_times_other_shape, [np.ones(3), np.ones(5)], (0,), "unreduce(np.vdot("),  # a
    # full mean is a scalar (full_reduction): its cotangent a vdot, not an unbroadcast
    (mean_of_product, [np.ones((3, 4)), np.ones(4)], (0,), "matmul_lhs_spread("),
    (mean_of_product, [np.ones((3, 4)), np.ones(4)], (1,), "matmul_rhs_spread("),
])
def test_the_spread_stays_where_broadcasting_would_not_make_it(fn, args, wrt, spread):
    assert spread in pullback_source(fn, args, wrt)


@pytest.mark.parametrize("policy", POLICIES)
def test_float32_stays_float32(policy):
    args = logistic_args(np.float32, n=50)
    dw, db = grad(logistic, wrt=(0, 1), policy=policy)(*args)
    assert dw.dtype == np.float32 and type(db) is np.float32
    wide = [a.astype(np.float64) if isinstance(a, np.ndarray) else float(a) for a in args]
    ew, eb = grad(logistic, wrt=(0, 1), policy=policy)(*wide)
    np.testing.assert_allclose(dw, ew, rtol=1e-4, atol=1e-6)
    assert abs(db - eb) <= 1e-4 * max(1.0, abs(eb))


@pytest.mark.parametrize("shape,axis,size", [
    ((3, 4), None, 12), ((3, 4), 1, 4), ((3, 4), -2, 3), ((2, 3, 4), (0, 2), 8),
    ((5,), 0, 5), ((), None, 1), ((0, 3), None, 0), ((2, 3), np.int64(1), 3)])
def test_reduction_size(shape, axis, size):
    got = reduction_size(np.zeros(shape), axis)
    assert got == size and type(got) is int
    assert reduction_size(np.zeros(shape).tolist(), axis) == size if shape else True


def test_reduction_size_of_numbers():
    assert reduction_size(2.5) == 1 and reduction_size(np.float32(2.5)) == 1
