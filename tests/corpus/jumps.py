"""break, continue and return anywhere: inside loops, nested loops and branches."""
import numpy as np

from .case import case, floats, given


@case(floats(()))
def break_in_range(x):
    s = 0.0
    for i in range(10):
        if i == 3:
            break
        s = s + x * i
    return s


@case(given(np.array([0.5, 1.5, -2.0, 0.7])))
def break_on_data(a):
    s = 0.0
    for v in a:
        if v < 0:
            break
        s = s + v * v
    return s


@case(given(np.array([0.5, -1.5, 2.0, -0.7])))
def continue_on_data(a):
    s = 0.0
    for v in a:
        if v < 0:
            continue
        s = s + v * v
    return s


@case(floats(()))
def continue_in_range(x):
    s = x
    for i in range(5):
        if i % 2 == 0:
            continue
        s = s * x + i
    return s


@case(given(0.8))
def return_in_loop(x):
    y = x
    for i in range(10):
        y = y * 1.5
        if y > 3.0:
            return y * x
    return y


@case(given(0.01))
def return_after_loop_ends(x):
    y = x
    for i in range(3):
        y = y * 1.5
        if y > 100.0:
            return y * x
    return y + x


@case(given(0.4))
def early_return_branch(x):
    if x > 0:
        return x * x
    y = x * 3.0
    return y * y


@case(given(-0.4))
def early_return_not_taken(x):
    if x > 0:
        return x * x
    y = x * 3.0
    return y * y


@case(given(0.2))
def while_break(x):
    y = x
    while True:
        y = y * 2.0 + x
        if y > 5.0:
            break
    return y


@case(given(0.3))
def while_continue(x):
    i = 0
    s = 0.0
    while i < 6:
        i = i + 1
        if i == 2:
            continue
        s = s + x * i
    return s


@case(floats((3, 3)))
def break_inner_loop(A):
    s = 0.0
    for i in range(3):
        for j in range(3):
            if j > i:
                break
            s = s + A[i, j] * A[j, i]
    return s


@case(floats((3, 3)))
def continue_outer_loop(A):
    s = 0.0
    for i in range(3):
        if i == 1:
            continue
        for j in range(3):
            s = s + A[i, j] ** 2
    return s


@case(given(np.array([0.3, 0.4, 0.5, 2.0])))
def return_from_nested_loop(a):
    s = 0.0
    for i in range(4):
        for j in range(4):
            s = s + a[i] * a[j]
            if s > 2.0:
                return s * a[0]
    return s


@case(given(np.array([0.5, -0.2, 0.8, 0.1])))
def break_and_continue(a):
    s = 0.0
    for v in a:
        if v < 0:
            continue
        if v > 0.7:
            break
        s = s + np.sin(v) * v
    return s


@case(given(0.6))
def return_in_else(x):
    if x > 1.0:
        y = x
    else:
        return x ** 3
    return y * y
