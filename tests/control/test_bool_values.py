"""`a or b` and `a and b` as values (not tests): the result is one of the operands, so its
derivative is that operand's. Each operand chosen and not, chains, lists, short-circuit,
under every policy, against central finite differences. (Found while naming the fuzzer's
repetition finding: `y = x or 2.0` had a zero gradient; the operator was one opaque,
non-differentiable statement.)"""
import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_grad

pytestmark = pytest.mark.parametrize("policy", POLICIES)


# k (an integer, not differentiated) makes the first operand false for every x near the
# point (x * 0 is 0.0), so finite differences never cross the operator's jump
def or_value(x, y, k):
    z = x * k or y
    return z * z * y


def and_value(x, y, k):
    z = x * k and y
    return z * z * x


def or_chain(x, y, w, k, m):
    z = x * k or y * m or w
    return z * x * y * w


def or_reads_its_target(x, y, k):
    x = x * k or y
    return x * x


def or_of_lists(v):
    xs = [v, np.sin(v)]
    ys = xs or [v]
    return np.sum(np.stack(ys) ** 2)


def and_of_lists_repeated(v):
    xs = [v, np.sin(v)]
    ys = (xs and [v * 2.0, v]) * 2
    return np.sum(np.stack(ys) ** 2)


def second_operand_not_evaluated(x, y):
    z = x or np.log(y)          # y < 0: log would warn and give nan if evaluated
    return z * x


@pytest.mark.parametrize("k", [1, 0])
@pytest.mark.parametrize("f", [or_value, and_value, or_reads_its_target])
def test_two_operands(f, k, policy):
    check_grad(f, (0.7, 1.3, k), wrt=(0, 1), policy=policy)


@pytest.mark.parametrize("k, m", [(1, 1), (0, 1), (0, 0)])
def test_chain(k, m, policy):
    check_grad(or_chain, (0.7, 1.3, 0.4, k, m), wrt=(0, 1, 2), policy=policy)


@pytest.mark.parametrize("f", [or_of_lists, and_of_lists_repeated])
def test_lists(f, policy):
    check_grad(f, (np.array([0.3, -0.7, 1.1]),), policy=policy)


def test_short_circuit(policy):
    with np.errstate(invalid="raise"):
        check_grad(second_operand_not_evaluated, (0.7, -1.0), wrt=0, policy=policy)
