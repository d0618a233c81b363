"""Mutually recursive functions, compiled from several threads at once."""
import numpy as np


def even_sum(x, n):
    if n <= 0:
        return np.sum(x * x)
    return odd_sum(x, n - 1) + np.sum(x)


def odd_sum(x, n):
    if n <= 0:
        return np.sum(np.sin(x))
    return even_sum(x, n - 1) * 0.5
