"""List and tuple repetition (`[a] * n`): copies, whose cotangents add."""
import numpy as np


def loop_over_repeated_list(x):
    s = 0.0
    for v in [x * 1.5] * 3:
        s = s + v * v
    return s


def repeated_tuple_on_the_right(x):
    s = 0.0
    for v in 2 * (x * 1.5, x):
        s = s + v * v
    return s


def repeated_name(x):
    xs = [x, 2 * x]
    ys = xs * 2
    return np.sum(ys) + np.sum(ys[0] * 3.0 + ys[3])


def stacked_copies(x):
    return np.sum(np.stack([x, x * 2.0] * 2) ** 2)


def number_times_number(x):
    a = x * 3
    return np.sum(a * a)
