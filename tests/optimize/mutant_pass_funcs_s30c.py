"""Programs for tests/optimize/test_mutants_passes_s30b.py (session 30, mut30c)."""
import numpy as np


def pop_missing_key(x):
    d = {"a": x * 2.0}
    d.pop("b")
    return np.sum(d["a"])
