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


def reduced_and_indexed(x):
    """A list given to NumPy and indexed: an array cotangent meets a list of entries."""
    ys = [x, 2 * x]
    return np.sum(ys) + np.sum(ys[0] * 3.0)


def tuple_reduced_and_indexed(x):
    ys = (x, 2 * x)
    return np.sum(ys) + np.sum(ys[0] * 3.0)


def stacked_and_indexed(x):
    ys = [x, x * x]
    return np.sum(np.stack(ys) * np.array([[1.0, 2.0], [3.0, 4.0]])) + np.sum(ys[1])


def repeat_list_parameter(xs):
    return np.sum(np.stack(xs * 2) ** 2)


def passes_a_list_to_a_repeating_helper(x):
    return repeat_list_parameter([x, 2.0 * x])


def pair(x):
    return [x, 2.0 * x]


def repeats_what_a_helper_returned(x):
    ys = pair(x)
    return np.sum(np.stack(ys * 2) ** 2)


def repeats_an_element_of_a_list(x):
    rows = [[x, 3.0 * x], [x]]
    return np.sum(np.stack(rows[0] * 3) ** 2)


def repeats_a_loop_variable(x):
    total = 0.0
    for pair_ in [[x, x * x], [2.0 * x, x]]:
        total = total + np.sum(np.stack(pair_ * 2) * np.array([1.0, 2.0, 3.0, 4.0]))
    return total


def scales_by_a_count_argument(x, k):
    return np.sum(scale_helper(x, k) * 1.5)


def scale_helper(a, k):
    return a * k + k * a


def repeats_by_a_count_built_from_one_name_twice(x, n):
    k = n + n                    # the same name on both sides: still an int
    return np.sum(np.stack(pair(x) * k) ** 2)


def chain_of_doublings(x):
    t0 = x
    t1 = t0 + t0
    t2 = t1 + t1
    t3 = t2 + t2
    t4 = t3 + t3
    t5 = t4 + t4
    t6 = t5 + t5
    t7 = t6 + t6
    t8 = t7 + t7
    t9 = t8 + t8
    t10 = t9 + t9
    t11 = t10 + t10
    t12 = t11 + t11
    t13 = t12 + t12
    t14 = t13 + t13
    t15 = t14 + t14
    t16 = t15 + t15
    t17 = t16 + t16
    t18 = t17 + t17
    t19 = t18 + t18
    t20 = t19 + t19
    return t20 * 2


def repeats_a_concatenation(x):
    ys = pair(x)
    return np.sum(np.stack((ys + [x]) * 2) ** 2)


def repeats_a_conditional_choice(x, flag):
    ys = pair(x)
    return np.sum(np.stack((ys if flag else [x, x]) * 2) ** 2)
