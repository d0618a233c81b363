"""Array methods with rules (runtime/rules/methods.py): a.item(...) and a.tolist() give
the cotangent back at the entries read, against central differences."""
import numpy as np
import pytest

from runtime.rules.methods import item, item_vjp, tolist, tolist_vjp
from tests.fd import assert_close
from tests.rules.checks import check_rule, rand

A = rand(2, 3)


@pytest.mark.parametrize("index", [4, (1, 0)], ids=str)
def test_item_matches_finite_differences(index):
    check_rule(item, [A, index], integers_none=False, argnums=[0])


def test_item_of_a_size_one_array():
    check_rule(item, [np.array([[0.7]])], argnums=[0])
    assert_close(item_vjp(2.0, np.ones((1, 1)), None), [[2.0]])


def test_tolist_matches_finite_differences():
    check_rule(tolist, [A], fd=lambda a: np.asarray(tolist(a)))
    got = tolist_vjp([[1.0, None, 2.0], None], A)
    assert_close(got, [[1.0, 0.0, 2.0], [0.0, 0.0, 0.0]])
