"""The general rule (compiled without argument shapes, what a function's 9th distinct
shape runs) decides when it runs whether `(W @ x)[i]` in a loop is a row update
(runtime MatmulLhsSum.add_item): a float matrix W, float vectors x and W @ x, a float
number as the item's cotangent. Anything else takes the general path (getitem_vjp and
an outer product). Gradients against finite differences under every policy, with the
general rule forced (no specialisation allowed), and add_item's decision case by case."""
import types

import numpy as np
import pytest

from runtime.containers import getitem_vjp
from runtime.helpers import matmul_lhs
from runtime.products import MatmulLhsSum
from runtime.tape import shape_only
from tests.gradcheck import POLICIES, check_function, rng
from transform.api import compiled
from transform.public import cache


def seed(W, xs):
    return sum((W @ x)[0] for x in xs)


def last_row(W, xs):
    s = 0.0
    for x in xs:
        s = s + np.tanh((W @ x)[-1])
    return s


def two_rows(W, xs):
    s = 0.0
    for x in xs:
        y = W @ x
        s = s + y[0] * y[2]
    return s


def matrix_rows(W, X, n):
    s = 0.0
    for _ in range(n):
        s = s + np.sum((W @ X)[1])
    return s


def batched(A, xs):
    return sum(np.sum((A @ x)[0]) for x in xs)


_R = rng("general_rows", 1)
_XS = [_R.normal(size=4) for _ in range(3)]
CASES = [
    (seed, (_R.normal(size=(3, 4)), _XS)),
    (last_row, (_R.normal(size=(3, 4)), _XS)),
    (two_rows, (_R.normal(size=(3, 4)), _XS)),
    (matrix_rows, (_R.normal(size=(3, 4)), _R.normal(size=(4, 2)), 2)),
    (batched, (_R.normal(size=(2, 3, 4)), _XS)),
]


def fresh(fn):
    return types.FunctionType(fn.__code__, fn.__globals__, fn.__name__, fn.__defaults__)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn,args", CASES, ids=[c[0].__name__ for c in CASES])
def test_general_rule_against_finite_differences(fn, args, policy, monkeypatch):
    monkeypatch.setattr(cache, "MAX_SPECIALISATIONS", 0)     # only the general rule
    copy = fresh(fn)
    check_function(copy, list(args), [0], policy)
    assert all(key[4] is None for key in cache.rules_of(copy))


def test_the_general_rule_adds_items():
    assert "add_item(0, " in compiled(fresh(seed), ("W",), "loop").source
    assert "add_item(-1, " in compiled(fresh(last_row), ("W",), "loop").source


def test_two_items_of_one_product_keep_the_general_path():
    """y[0] and y[2] of one y = W @ x: their cotangents are summed before the product's,
    so no single item is the update (the loop policy batches the sum as before)."""
    text = compiled(fresh(two_rows), ("W",), "loop").source
    assert "add_item" not in text and "getitem_vjp" in text


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_general_rule_float32_like_specialised(dtype, monkeypatch):
    W, xs = CASES[0][1]
    W, xs = W.astype(dtype), [x.astype(dtype) for x in xs]
    from transform import grad
    want = grad(fresh(seed))(W, xs)
    monkeypatch.setattr(cache, "MAX_SPECIALISATIONS", 0)
    got = grad(fresh(seed))(W, xs)
    assert got.dtype == want.dtype == dtype
    np.testing.assert_allclose(got, want, rtol=1e-6)


_A = rng("general_rows", 2).normal(size=(3, 4))
_B = rng("general_rows", 3).normal(size=4)
_T = _A @ _B
ITEMS = [   # (a, g, t, b, row update expected)
    (_A, 0.5, _T, _B, True),
    (_A, np.float64(0.5), shape_only(_T), _B, True),
    (_A.astype(np.float32), np.float32(0.5), _T.astype(np.float32), _B.astype(np.float32),
     True),
    (_A, np.array(0.5), _T, _B, False),                  # a 0-d array: not a number
    (_A, 1, _T, _B, False),                              # an int cotangent
    (_A, 0.5, list(_T), _B, False),                      # t a list
    (_A, 0.5, _T[:, None] * np.ones(2), _B[:, None] * np.ones(2), False),   # t, b matrices
    (_A, 0.5, _T, _B[:, None], False),                   # b a matrix
    (_A, 0.5, _T, list(_B), False),                      # b a list
    (_A, 0.5, _T, _B.astype(np.int64), False),           # b of ints
    (_A.astype(np.int64), 0.5, _T, _B, False),           # a of ints
    (_A.view(np.matrix), 0.5, _T, _B, False),            # a a subclass
    (_A[None], 0.5, _T, _B, False),                      # a 3-D
]


@pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")
@pytest.mark.parametrize("a,g,t,b,row", ITEMS, ids=[str(k) for k in range(len(ITEMS))])
def test_add_item_decides_when_it_runs(a, g, t, b, row):
    s = MatmulLhsSum(a)
    s.add_item(1, g, t, b)
    assert bool(s.rows) is row and bool(s.gs) is not row
    if row:
        want = matmul_lhs(getitem_vjp(g, _T.astype(t.dtype), 1),
                          a, np.asarray(b))
        np.testing.assert_allclose(s.total(), want, rtol=1e-6)
        assert s.total().dtype == np.result_type(a.dtype, b.dtype)


def test_add_item_of_no_cotangent_takes_the_general_path():
    s = MatmulLhsSum(_A)
    s.add_item(0, None, _T, _B)
    np.testing.assert_array_equal(s.total(), np.zeros((3, 4)))
