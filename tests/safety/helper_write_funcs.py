"""Helpers that write into the caller's data, called where their result is unused."""
import numpy as np

push = lambda xs, v: xs.append(v * 2.0)      # noqa: E731  (a module-level lambda helper)


def lambda_helper_appends(x):
    xs = [x]
    s = np.sum(xs)
    push(xs, x)
    return s + np.sum(xs)
