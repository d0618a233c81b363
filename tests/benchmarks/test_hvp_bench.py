"""benchmarks/hvp.py (issue 20's hvp point) at tiny sizes: it runs, and the hvps it times
are right: thunkgrad's and the hand-written ones against central differences of the
gradient along the direction, in float64. Not timed: the ratio targets live in the
benchmark's output."""
import sys

import numpy as np
import pytest

from tests.fd import assert_close, numerical_jvp
from transform import grad, hvp

sys.path.insert(0, __file__.rsplit("/tests/", 1)[0] + "/benchmarks")
import hvp as bench  # noqa: E402

CASES = {c.key: c for c in bench.CASES}


def float64(args):
    return tuple(a.astype(np.float64) if isinstance(a, np.ndarray) else a for a in args)


def differenced_gradient(gradient, args, v):
    """d/dt gradient(args with the hvp's argument (the first, W1 or Wh) + t v) at t = 0."""
    return numerical_jvp(gradient, args, 0, v)


@pytest.mark.parametrize("key", sorted(CASES))
def test_thunkgrad_hvp_is_the_difference_of_its_gradient(key):
    case = CASES[key]
    args = float64(case.tiny())
    v = bench.direction(case, args)
    expected = differenced_gradient(grad(case.fn, case.wrt), args, v)
    assert_close(hvp(case.fn, args, (v,), wrt=case.wrt), expected)


@pytest.mark.parametrize("key", sorted(CASES))
def test_hand_hvp_is_the_difference_of_the_hand_gradient(key):
    case = CASES[key]
    args = float64(case.tiny())
    v = bench.direction(case, args)
    expected = differenced_gradient(lambda *a: case.hand(*a)[0], args, v)
    assert_close(case.hand_hvp(*args, v), expected)


def test_the_benchmark_runs_at_tiny_sizes(capsys):
    text = bench.main(["--tiny", "--runs", "1"])
    assert text.count("hvp / grad (wrt) = ") == len(CASES)
    assert "W4" in capsys.readouterr().out
