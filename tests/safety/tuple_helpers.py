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


PROGRAMS = [lstm, lstm_cell_state_reused, lstm_swapped, lstm_passthrough, lstm_nested,
            lstm_indexed, lstm_with_count, lstm_prev_h, lstm_history, lstm_in_branch]
