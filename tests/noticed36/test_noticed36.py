"""Session 36: items noticed and left alone in earlier sessions, each against central
differences in float64 computed without thunkgrad (tests/fd.py, red2's second
differences)."""
import warnings

import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad
from tests.gradcheck import readonly, rng
from tests.noticed36 import programs as P
from tests.red2.check import CHECKS
from transform import grad

X = np.array([0.3, -0.2, 0.5, -1.1])
# (program, argument, checks): grad against first differences, the rest red2's
CASES = {
    "piecewise_keywords_named_like_vjp": (X, ("grad", "jvp")),   # hvp: piecewise_jvp refused
}


@pytest.mark.parametrize("name, check", [(n, c) for n, (_, cs) in CASES.items() for c in cs])
def test_against_finite_differences(name, check):
    f, (x, _) = getattr(P, name), CASES[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        if check == "grad":
            assert_close(grad(f)(readonly((x,))[0]), numerical_grad(f, (x,), 0))
        else:
            CHECKS[check](f, list(readonly((x,))), 0, rng("noticed36", name, check))
