"""Fresh helpers per call (closures), so that their alias summaries are computed while
other threads compile callers of the same helpers."""
import numpy as np


def appending_pair():
    """(a caller, its helper that appends to the caller's list: refused)."""
    def push(xs, v):
        xs.append(v * 2.0)

    def caller(x):
        xs = [x]
        s = np.sum(xs)
        push(xs, x)
        return s + np.sum(xs)
    return caller


def returning_pair():
    """A caller whose helper returns its argument (an alias), then writes the result."""
    def same(v):
        return v

    def caller(x):
        y = x * 1.0
        z = same(y)
        z = z * 3.0
        return np.sum(y * z)
    return caller
