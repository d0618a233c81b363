"""The walrus anywhere in a statement's own expression: after a call, after a read of
its name, in a branch of `and`/`or`/`if`-expressions and chained comparisons, in a
`while` test (with and without a loop `else`); scalar and array variants. A walrus in a
comprehension stays refused."""
import math

import numpy as np

from .case import case, floats, given, mixed, refused


@case(floats((3,)))
def walrus_after_a_call(x):
    y = np.sum(x) + (n := np.sum(x ** 2)) * 2.0
    return y * n


@case(floats(()))
def walrus_after_a_call_scalar(x):
    y = math.sin(x) * (c := math.cos(x)) + c
    return y * c


@case(floats((3,)))
def walrus_in_a_branch_not_taken(x):
    z = 5.0
    y = np.sum(x) if x[0] > 100.0 else (z := np.sum(x * 2.0)) + 1.0
    return y * z


@case(floats(()))
def walrus_in_an_and_scalar(x):
    if x > -100.0 and (m := x * x) > -1.0:
        return m * x
    return 0.0


@case(floats((3,)))
def walrus_in_an_or_short_circuited(x):
    m = 2.0
    if np.sum(x) > -100.0 or (m := np.max(x)) > 0.0:
        return m * np.sum(x)
    return m


@case(floats((3,)))
def walrus_in_a_while_test_with_else(x):
    k = 0
    s = 0.0
    while (t := np.sin(x[k]) * x[k]) < 100.0 and k < 2:
        s = s + t
        k += 1
    else:
        s = s * 2.0
    return s + t


@case(floats(()))
def walrus_in_a_while_test_newton_scalar(a):
    r = 1.0
    steps = 0
    while abs(err := r * r - (a * a + 1.0)) > 1e-12 and steps < 50:
        r = r - err / (2.0 * r)
        steps += 1
    return r


@case(floats((2,)))
def walrus_reread_after_rebinding(x):
    y = x[0]
    z = y * 3.0 + (y := x[1] * 2.0)
    return z * y


@case(floats((3,)))
def walrus_in_a_chained_comparison(x):
    if -1e9 < (a := np.sum(x)) < (b := np.sum(x ** 2)) + 1e9:
        return a * b
    return 0.0


@case(floats((3,)))
def walrus_in_call_arguments(x):
    total = np.dot(x, (w := np.tanh(x)))
    return total + np.sum(w) * np.max(y := x * 2.0) + np.sum(y)


@refused(floats((3,)), "a walrus inside a comprehension binds the function's scope")
def walrus_inside_a_comprehension(x):
    ys = [(last := v * 2.0) for v in x]
    return np.sum(ys) + last


@case(floats((3,)))
def walrus_in_an_augmented_assignment(x):
    total = 1.0
    total += (n := np.sum(x ** 2)) * 2.0
    return total * n


@case(floats((3,)))
def walrus_as_a_value_of_and_or(x):
    return np.sum(x) > -100.0 and (m := np.sum(x * 3.0)) or np.sum(x)


@case(mixed(floats((3,)), given(1)), wrt=(0,))
def walrus_in_a_match_guard(x, k):
    match k:
        case 1 if (m := np.sum(x * x)) > -100.0:
            return m * 2.0
        case _:
            return np.sum(x)


@refused(floats((3,)), "a walrus in an assignment target")
def walrus_in_a_subscript_target(x):
    a = np.zeros(3)
    a[(i := 1)] = 2.0
    return np.sum(a * x) * i
