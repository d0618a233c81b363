"""Issue 16, session 30 (py30a): writes people make in a loss.

`a += v` (and `-=`, `*=`) on an array argument: the argument is copied on entry, so grad
leaves the caller's array as it was (issue 16, "Writes into an argument"). Scalar and
array inputs against finite differences under every policy."""
import numpy as np

from .case import case, floats
from .data_values import both


@case(floats((3,)))
def augmented_array_argument(a):
    a += np.sin(a)
    return np.sum(a * a)


@case(floats((3,), (3,)))
def augmented_argument_in_a_loop(a, b):
    for k in range(3):
        a += b * k
        a *= 0.9
    return np.sum(np.sin(a))


@both
def augmented_number_or_array_argument(a):
    b = a * 2.0
    a += b
    a *= 3.0
    return np.sum(a ** 2)
