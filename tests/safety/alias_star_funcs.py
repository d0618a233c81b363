"""Programs for tests/safety/test_mutants_alias_s30.py: a starred target's objects."""
import numpy as np


def star_rest_rows(A):
    B = A * 1.0
    first, *rest = B
    y = np.sum(B ** 2)
    rest[0][0] = 0.0
    return y + np.sum(B * first)


def star_rest_list(x):
    a = x * 1.0
    b = x * 2.0
    first, *rest = [a, b]
    y = np.sum(b ** 2)
    rest[0][0] = 0.0
    return y + np.sum(b * first)


def star_rest_nested(x):
    a = x * 1.0
    b = x * 2.0
    first, *rest = [[a], [b]]
    y = np.sum(b ** 2)
    rest[0][0][0] = 0.0
    return y + np.sum(b)


def star_rest_write_into(x):
    a = x * 1.0
    b = x * 2.0
    ys = [a, b]
    *rest, last = ys
    y = np.sum(last ** 2)
    last[0] = 0.0
    return y + np.sum(b)


def star_in_generator(x):
    rows = [[x, x * 2.0], [x * 3.0, x]]
    return sum(np.sum(r[0]) for a, *r in rows)


def star_in_list_comprehension(x):
    rows = [[x, x * 2.0], [x * 3.0, x]]
    return np.sum([np.sum(r) for a, *r in rows])


def star_in_dict_comprehension(x):
    rows = [[x, x * 2.0], [x * 3.0, x]]
    d = {k: np.sum(r) for k, (a, *r) in enumerate(rows)}
    return d[0] + d[1]

