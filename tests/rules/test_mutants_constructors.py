"""Behaviour the mutation run (tools/mutate.py) found unpinned in
runtime/rules/constructors.py: each test kills a mutant the other tests let through."""
import numpy as np

from runtime.rules.constructors import astype


def test_astype_as_a_function_copies_like_the_method():
    """`x.astype(dtype)` copies even to its own dtype; the function standing in for the
    method must too, or a write into its result would reach the caller's array."""
    x = np.arange(3.0)
    y = astype(x, np.float64)
    assert not np.shares_memory(x, y)
    y[0] = 7.0
    assert x[0] == 0.0
    assert np.shares_memory(x, astype(x, np.float64, copy=False))
