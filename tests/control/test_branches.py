"""If/elif/else, boolean operators, comparisons (chained), conditional
expressions -- each branch taken and not taken, scalar and array code, under
every policy, against central finite differences."""
import math

import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_grad

pytestmark = pytest.mark.parametrize("policy", POLICIES)


def v(*xs):
    return np.array(xs, dtype=np.float64)


# ---------------------------------------------------------------- if / else
def if_only(x, y):
    z = x * y
    if x > 0:
        z = z * x
    return z


def if_else(x, y):
    if x > y:
        z = math.sin(x) * y
    else:
        z = x * x - y
    return z


def if_elif_else(x, y):
    if x < -1.0:
        z = x * y
    elif x < 1.0:
        z = math.exp(x) + y * y
    else:
        z = math.log(x) * y
    return z * 2.0


def if_return_early(x, y):
    if x > 0:
        return x * y
    return y * y - x


def if_assigns_different_names(x, y):
    a = x
    b = y
    if x * y > 0.5:
        a = a * 3.0
    else:
        b = b * math.cos(x)
    return a * b


def if_nested(x, y):
    z = 0.0
    if x > 0:
        if y > 0:
            z = x * y
        else:
            z = x - y * y
    else:
        if y > 0:
            z = math.sin(x * y)
        else:
            z = x * x * y
    return z + x


@pytest.mark.parametrize("x,y", [(1.2, 0.7), (-0.8, 0.7)], ids=["taken", "not-taken"])
def test_if_only(policy, x, y):
    check_grad(if_only, [x, y], policy=policy)


@pytest.mark.parametrize("x,y", [(1.2, 0.7), (0.3, 0.7)], ids=["if", "else"])
def test_if_else(policy, x, y):
    check_grad(if_else, [x, y], policy=policy)


@pytest.mark.parametrize("x", [-1.7, 0.4, 2.3], ids=["if", "elif", "else"])
def test_if_elif_else(policy, x):
    check_grad(if_elif_else, [x, 0.6], policy=policy)


@pytest.mark.parametrize("x", [0.9, -0.9], ids=["early", "late"])
def test_if_return_early(policy, x):
    check_grad(if_return_early, [x, 1.3], policy=policy)


@pytest.mark.parametrize("x,y", [(1.0, 1.0), (0.2, 0.3)], ids=["a", "b"])
def test_if_assigns_different_names(policy, x, y):
    check_grad(if_assigns_different_names, [x, y], policy=policy)


@pytest.mark.parametrize("x,y", [(0.5, 0.7), (0.5, -0.7), (-0.5, 0.7), (-0.5, -0.7)])
def test_if_nested(policy, x, y):
    check_grad(if_nested, [x, y], policy=policy)


# ---------------------------------------------------------------- boolean operators
def bool_and(x, y):
    if x > 0 and y > 0:
        return x * y * y
    return x + y


def bool_or(x, y):
    if x > 1.0 or y < 0:
        return math.sin(x) * y
    return x * y


def bool_not(x, y):
    if not x > y:
        return x * x
    return y * x * 3.0


def bool_mixed(x, y, flag):
    if (x > 0 or flag) and not y > 2.0:
        return x * y
    return x - y


@pytest.mark.parametrize("x,y", [(0.5, 0.7), (0.5, -0.7), (-0.5, 0.7)])
def test_and(policy, x, y):
    check_grad(bool_and, [x, y], policy=policy)


@pytest.mark.parametrize("x,y", [(1.5, 0.7), (0.5, -0.7), (0.5, 0.7)])
def test_or(policy, x, y):
    check_grad(bool_or, [x, y], policy=policy)


@pytest.mark.parametrize("x,y", [(0.2, 0.7), (0.9, 0.7)])
def test_not(policy, x, y):
    check_grad(bool_not, [x, y], policy=policy)


@pytest.mark.parametrize("x,y,flag", [(0.5, 1.0, False), (-0.5, 1.0, False),
                                      (-0.5, 1.0, True), (0.5, 3.0, True)])
def test_bool_mixed(policy, x, y, flag):
    check_grad(bool_mixed, [x, y, flag], wrt=(0, 1), policy=policy)


# ---------------------------------------------------------------- comparisons
def elif_returns_then_fallthrough(x, n):
    if n == 2:
        return x * x
    elif n == 4:
        return x * 3.0
    return x


def if_returns_then_fallthrough(x, n):
    if n == 2:
        return x * x
    return x * 5.0

def compare_eq(x, n):
    if n == 2:
        return x * x
    elif n != 3:
        return x * 3.0
    return x


def chained(x, y):
    if 0.0 < x < y:
        return x * y
    return x / y


def chained_three(x, y):
    if -1.0 <= x <= y <= 2.0:
        return math.exp(x) * y
    return y * y * x


def compare_values(x, y):
    c = x >= y
    if c:
        return x * 2.0
    return y * 2.0 + x




@pytest.mark.parametrize("n", [2, 3, 4])
def test_compare_eq_on_integer_argument(policy, n):
    check_grad(compare_eq, [1.3, n], wrt=(0,), policy=policy)


@pytest.mark.parametrize("n", [2, 4, 3])
def test_elif_returns_then_fallthrough(policy, n):
    check_grad(elif_returns_then_fallthrough, [1.3, n], wrt=(0,), policy=policy)


@pytest.mark.parametrize("n", [2, 3])
def test_if_returns_then_fallthrough(policy, n):
    check_grad(if_returns_then_fallthrough, [1.3, n], wrt=(0,), policy=policy)


@pytest.mark.parametrize("x,y", [(0.5, 1.0), (1.5, 1.0), (-0.5, 1.0)])
def test_chained_comparison(policy, x, y):
    check_grad(chained, [x, y], policy=policy)


@pytest.mark.parametrize("x,y", [(0.5, 1.0), (0.5, 2.5), (-1.5, 1.0), (1.5, 1.0)])
def test_chained_three(policy, x, y):
    check_grad(chained_three, [x, y], policy=policy)


@pytest.mark.parametrize("x,y", [(0.5, 0.3), (0.1, 0.3)])
def test_comparison_value_stored(policy, x, y):
    check_grad(compare_values, [x, y], policy=policy)


# ---------------------------------------------------------------- conditional expressions
def ifexp(x, y):
    return x * y if x > y else y * y


def ifexp_nested(x, y):
    z = x if x > 1.0 else (y * x if y > 0 else -x)
    return z * z


def ifexp_in_expression(x, y):
    return 2.0 * (math.sin(x) if x < y else math.cos(y)) + x


def ifexp_array(a, b):
    c = a * b if np.sum(a) > 0 else a - b
    return np.sum(c * c)


@pytest.mark.parametrize("x,y", [(2.0, 1.0), (0.5, 1.0)])
def test_ifexp(policy, x, y):
    check_grad(ifexp, [x, y], policy=policy)


@pytest.mark.parametrize("x,y", [(2.0, 1.0), (0.5, 1.0), (0.5, -1.0)])
def test_ifexp_nested(policy, x, y):
    check_grad(ifexp_nested, [x, y], policy=policy)


@pytest.mark.parametrize("x,y", [(0.3, 1.0), (1.5, 1.0)])
def test_ifexp_in_expression(policy, x, y):
    check_grad(ifexp_in_expression, [x, y], policy=policy)


@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_ifexp_array(policy, sign):
    check_grad(ifexp_array, [sign * v(0.5, 0.2, 0.3), v(1.0, -2.0, 0.5)], policy=policy)


# ---------------------------------------------------------------- array code
def array_branch(W, x):
    h = W @ x
    if np.sum(h) > 0:
        y = np.tanh(h)
    else:
        y = np.sin(h) * 2.0
    return np.sum(y * y)


def array_branch_on_norm(w, b):
    if np.linalg.norm(w) > 1.0:
        w = w / np.linalg.norm(w)
    return np.sum(w * b) + np.sum(b)


def array_branch_shape(x):
    if x.shape[0] > 2:
        y = x[:2] * x[1:3]
    else:
        y = x * x
    return np.sum(y)


def array_branch_reassign_only_one_side(A, b):
    y = A @ b
    if np.max(y) > 1.0:
        y = np.maximum(y, 0.5)
    return np.sum(np.exp(y))


@pytest.mark.parametrize("sign", [1.0, -1.0], ids=["tanh", "sin"])
def test_array_branch(policy, sign):
    W = sign * np.array([[0.5, 0.2], [0.3, 0.4], [0.1, 0.6]])
    check_grad(array_branch, [W, v(1.0, 0.5)], policy=policy)


@pytest.mark.parametrize("scale", [2.0, 0.2], ids=["normalised", "kept"])
def test_array_branch_on_norm(policy, scale):
    check_grad(array_branch_on_norm, [scale * v(0.6, -0.8, 0.1), v(1.0, 2.0, 3.0)],
               policy=policy)


@pytest.mark.parametrize("n", [4, 2])
def test_array_branch_on_shape(policy, n):
    check_grad(array_branch_shape, [np.linspace(0.1, 0.9, n)], policy=policy)


@pytest.mark.parametrize("scale", [2.0, 0.1], ids=["taken", "not-taken"])
def test_array_branch_reassign_one_side(policy, scale):
    A = scale * np.array([[0.5, 0.2], [0.3, -0.4], [0.1, 0.6]])
    check_grad(array_branch_reassign_only_one_side, [A, v(1.0, 0.7)], policy=policy)
