"""Behaviour the mutation run (tools/mutate.py) found unpinned in
runtime/rules/math_module.py: each test kills a mutant the other tests let through."""
import math

import pytest
import scipy.special

from runtime.rules.math_module import digamma

POINTS = [-2.5, -0.7, 0.3, 0.5, 1.0, 2.5, 9.5, 10.0, 10.5, 30.0, 1e4]


@pytest.mark.parametrize("x", POINTS)
def test_digamma_matches_scipy_to_its_stated_error(x):
    """math.lgamma's derivative: the recurrence, the reflection and the asymptotic series
    together are within 1e-13 (relative) of scipy.special.digamma, on both sides of the
    reflection point 0.5 and of the series' start at 10."""
    want = scipy.special.digamma(x)
    assert math.isclose(digamma(x), want, rel_tol=1e-13, abs_tol=1e-13)
