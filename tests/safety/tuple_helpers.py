"""Helpers returning tuples, called in loops: how every LSTM is written.

Each program takes `(w, x, n)`: w a float, x a float array, n the trip count.
"""
import numpy as np


def cell(w, h, c):
    c2 = np.tanh(w * h) + c
    return np.tanh(c2), c2


def cell_swapped(w, h, c):
    c2 = np.tanh(w * h) + 0.5 * c
    return c2, np.tanh(c2)


def cell_passthrough(w, h, c):
    """One output is an input, unchanged: its cotangent is the caller's own."""
    return np.tanh(w * h + c), c


def cell_nested(w, h, c):
    a, b = cell(w, h, c)
    return a * b, b


def cell_with_count(w, h, c):
    c2 = 0.5 * c + np.sin(w * h)
    return np.tanh(c2), c2, 1


def cell_loop(w, h, c):
    """A helper with its own loop."""
    for k in range(2):
        c = 0.5 * c + np.sin(w * h)
        h = np.tanh(c) * h
    return h, c


def cell_early(w, h, c):
    """A helper with an early return of its arguments."""
    if np.sum(h) > 100.0:
        return h, c
    c2 = np.tanh(w * h) + c
    return np.tanh(c2), c2


def cell_kw(w, h, c, scale=1.0):
    c2 = np.tanh(w * h) * scale + c
    return (np.tanh(c2), c2)


def lstm(w, x, n):
    h = np.zeros_like(x)
    c = np.zeros_like(x)
    for i in range(n):
        h, c = cell(w, h + x, c)
    return np.sum(h)


def lstm_cell_state_reused(w, x, n):
    h = x * 1.0
    c = x * 0.5
    s = 0.0
    for i in range(n):
        h, c = cell(w, h, c)
        s = s + np.sum(c * h)
    return s + np.sum(c)


def lstm_swapped(w, x, n):
    h = x * 1.0
    c = x * 0.0
    for i in range(n):
        c, h = cell_swapped(w, h + x, c)
    return np.sum(h * c)


def lstm_passthrough(w, x, n):
    h = x * 1.0
    c = x * 0.3
    for i in range(n):
        h, c = cell_passthrough(w, h, c)
    return np.sum(h + c * c)


def lstm_nested(w, x, n):
    h = x * 1.0
    c = x * 0.1
    for i in range(n):
        h, c = cell_nested(w, h, c)
    return np.sum(h) + np.sum(c)


def lstm_indexed(w, x, n):
    h = x * 1.0
    c = x * 0.0
    for i in range(n):
        out = cell(w, h + x, c)
        h = out[0]
        c = out[1]
    return np.sum(h)


def lstm_with_count(w, x, n):
    h = x * 1.0
    c = x * 0.2
    steps = 0
    for i in range(n):
        h, c, k = cell_with_count(w, h, c)
        steps = steps + k
    return np.sum(h * c) * 1.0


def lstm_prev_h(w, x, n):
    h = x * 1.0
    c = x * 0.0
    prev = x
    total = 0.0
    for i in range(n):
        h, c = cell(w, h + prev, c)
        total = total + np.sum(h * prev)
        prev = h
    return total


def lstm_history(w, x, n):
    h = x * 1.0
    c = x * 0.0
    hs = []
    for i in range(n):
        h, c = cell(w, h, c)
        hs.append(h)
    return np.sum(hs) + np.sum(h)


def lstm_in_branch(w, x, n):
    h = x * 1.0
    c = x * 0.0
    for i in range(n):
        if i % 2 == 0:
            h, c = cell(w, h + x, c)
        else:
            h = 0.9 * h
    return np.sum(h + c)


def lstm_helper_loop(w, x, n):
    h = x * 1.0
    c = x * 0.0
    for i in range(n):
        h, c = cell_loop(w, h + x, c)
    return np.sum(h * c)


def lstm_early(w, x, n):
    h = x * 1.0
    c = x * 0.0
    for i in range(n):
        h, c = cell_early(w, h, c)
    return np.sum(h + c)


def lstm_keyword(w, x, n):
    h = x * 1.0
    c = x * 0.0
    for i in range(n):
        h, c = cell_kw(w, h, c, scale=0.5)
    return np.sum(h * c)


def two_cells_while(w, x, n):
    h = x * 1.0
    c = x * 0.0
    k = 0
    while k < n:
        h, c = cell(w, h, c)
        h2, c2 = cell(w, c, h)
        h = h + 0.1 * h2
        k += 1
    return np.sum(h + c)


def lstm_nested_loops(w, x, n):
    h = x * 1.0
    c = x * 0.0
    for i in range(n):
        for j in range(2):
            h, c = cell(w, h, c)
    return np.sum(h + c)


def mean_of_history(w, x, n):
    h = x * 1.0
    c = x * 0.0
    hs = [h]
    for i in range(n):
        h, c = cell(w, h, c)
        hs.append(h)
    return np.sum(np.mean(hs, axis=0))


PROGRAMS = [lstm, lstm_cell_state_reused, lstm_swapped, lstm_passthrough, lstm_nested,
            lstm_indexed, lstm_with_count, lstm_prev_h, lstm_history, lstm_in_branch,
            lstm_helper_loop, lstm_early, lstm_keyword, two_cells_while, lstm_nested_loops,
            mean_of_history]
