"""`return name` inside `try` whose `finally` block rebinds that name: Python returns the
value from before the block (session 33 (while) found the compiler returning the
rebound one, a silently wrong value and gradient: transform/frontend/exits.py)."""
import numpy as np

from tests.gradcheck import check_grad
from transform import grad


def rebinds_the_returned_name(x):
    y = x
    try:
        y = x * 2.0
        if y > 0:
            return y
    finally:
        y = y * 3.0
    return y


def rebinds_in_a_loop(x, n):
    total = x
    for i in range(n):
        try:
            total = total * 1.5
            if i == 2:
                return total
        finally:
            total = total + 1.0
    return total


def test_the_value_from_before_the_finally_block_is_returned():
    assert grad(rebinds_the_returned_name)(1.0) == 2.0
    assert grad(rebinds_the_returned_name)(-1.0) == 6.0     # (no return in the try)
    check_grad(rebinds_the_returned_name, [0.7], wrt=0)


def test_in_a_loop():
    check_grad(rebinds_in_a_loop, [0.7, 5], wrt=0)
    assert grad(rebinds_in_a_loop)(0.7, 5) == np.float64(1.5 ** 3)
