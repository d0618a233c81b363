"""benchmarks/hessian.py at tiny sizes: it runs, and the hand-written Hessians it checks
thunkgrad against are right: each against central differences of its hand gradient
(float64). Not timed: the ratios live in the benchmark's output."""
import sys

import numpy as np
import pytest

from tests.fd import assert_close, numerical_jvp

sys.path.insert(0, __file__.rsplit("/tests/", 1)[0] + "/benchmarks")
import hessian as bench             # noqa: E402
import hessian_workloads as hw      # noqa: E402

HANDS = {"logreg": (hw.logreg_data(4, 9), hw.logreg_hand_grad, hw.logreg_hand_hessian),
         "energy": (hw.energy_data(3), hw.energy_hand_grad, hw.energy_hand_hessian)}


@pytest.mark.parametrize("key", sorted(HANDS))
def test_hand_hessian_is_the_difference_of_the_hand_gradient(key):
    args, hand_grad, hand_hessian = HANDS[key]
    x = args[0]
    columns = [numerical_jvp(hand_grad, args, 0, e.reshape(x.shape)) for e in np.eye(x.size)]
    expected = np.stack([np.ravel(c) for c in columns], axis=-1).reshape(x.shape + x.shape)
    assert_close(hand_hessian(*args), expected)


def test_the_benchmark_runs_at_tiny_sizes(capsys):
    text = bench.main(["--tiny", "--runs", "1", "--only", "logreg100,energy50"])
    assert text.count("| hessian |") == 2 and "n x grad" in text
    assert "logreg100" in capsys.readouterr().out
