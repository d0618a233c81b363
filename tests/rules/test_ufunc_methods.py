"""Methods of ufuncs (reduce, accumulate, outer) against central differences; ties of
the running maximum; ufunc.at refused; np.prod's initial= (a regression)."""
import numpy as np
import pytest

import runtime
from tests.gradcheck import POLICIES, check_grad
from tests.rules.checks import case, check_float32, check_rule, rand
from transform import TransformError, grad

A34, V5 = rand(3, 4), rand(5, seed=1)
V = V5
WITH_ZERO = np.array([[1.5, 0.0, -2.0], [0.7, 1.1, 0.0]])
MASK = np.array([[True, False, True, True]] * 3)
TIES = np.array([0.5, 0.2, 0.5, 0.9, 0.9, 0.1])          # runs equal to the running max

CASES = [
    case(np.add.reduce, A34), case(np.add.reduce, A34, axis=1), case(np.add.reduce, A34, axis=None),
    case(np.add.reduce, A34, axis=(0, 1), keepdims=True), case(np.add.reduce, A34, initial=2.0),
    case(np.add.reduce, A34, axis=1, where=MASK),
    case(np.multiply.reduce, A34), case(np.multiply.reduce, A34, axis=1, keepdims=True),
    case(np.multiply.reduce, WITH_ZERO, axis=None), case(np.multiply.reduce, WITH_ZERO, axis=1),
    case(np.multiply.reduce, A34, axis=1, initial=1.5),
    case(np.multiply.reduce, A34, axis=1, where=MASK, initial=0.5),
    case(np.add.accumulate, A34), case(np.add.accumulate, A34, axis=1), case(np.add.accumulate, V5),
    case(np.maximum.accumulate, V5), case(np.maximum.accumulate, A34, axis=1),
    case(np.maximum.accumulate, A34), case(np.minimum.accumulate, A34, axis=-1),
    case(np.add.outer, V5, A34), case(np.add.outer, 1.5, V5, id="add-outer-scalar"),
    case(np.multiply.outer, V5, A34), case(np.multiply.outer, A34, V5),
    case(np.multiply.outer, 1.5, V5, id="multiply-outer-scalar"),
    case(np.add.reduceat, V, [0, 2, 3]), case(np.add.reduceat, A34, [0, 2], axis=1),
    case(np.add.reduceat, A34, [2, 0, 1], id="reduceat-decreasing"),
    case(np.add.reduceat, rand(6, 2, seed=6), [1, 1, 4], id="reduceat-repeated"),
    case(np.prod, A34, initial=2.0, id="prod-initial"),
    case(np.prod, A34, axis=0, initial=-1.5, id="prod-axis-initial"),
]


@pytest.mark.parametrize("fn, args, kwargs", CASES)
def test_matches_finite_differences(fn, args, kwargs):
    check_rule(fn, args, kwargs)


@pytest.mark.parametrize("fn, args, kwargs", CASES)
def test_float32_stays_float32(fn, args, kwargs):
    check_float32(fn, args, kwargs)


def test_reduce_initial_is_differentiated():
    check_rule(np.add.reduce, [A34, 0, None, None, False, 2.0], argnums=[0, 5])


def test_running_max_tie_keeps_the_earlier_element():
    _, pullback = runtime.lookup(np.maximum.accumulate).rrule(TIES)
    cot = runtime.unthunk(pullback(np.arange(1.0, 7.0))[0])
    # outputs 0.5 0.5 0.5 0.9 0.9 0.9: x[0] carries the first three, x[3] the rest
    np.testing.assert_array_equal(cot, [6.0, 0.0, 0.0, 15.0, 0.0, 0.0])


def reduce_loss(x, y):
    rows = np.add.reduce(x * x, axis=1)
    return np.sum(np.maximum.accumulate(rows) * np.multiply.reduce(x, axis=0)[:3]) + \
        np.sum(np.multiply.outer(rows, y) ** 2)


@pytest.mark.parametrize("policy", POLICIES)
def test_ufunc_methods_in_compiled_code(policy):
    check_grad(reduce_loss, [A34, V5], policy=policy)


def scatter_loss(x):
    y = np.ones(3)
    np.power.at(y, [0, 0, 1], x)   # np.add/multiply/...at: tests/rules/test_ufunc_at*.py
    return np.sum(y ** 2)


def test_ufunc_at_is_refused():
    with pytest.raises(TransformError, match="in place"):
        grad(scatter_loss)(np.array([1.0, 2.0, 3.0]))
