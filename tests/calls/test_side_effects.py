"""Calls without a derivative run once, in the forward sweep, as in the primal; calls
that hide what they read or write are refused at the user's line."""
import logging

import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_grad
from transform import TransformError, grad, value_and_grad


def noisy(x):
    print("loss", float(np.sum(x * x)))
    return np.sum(x * x)


@pytest.mark.parametrize("policy", POLICIES)
def test_print_runs_once_per_gradient(capsys, policy):
    grad(noisy, policy=policy)(np.array([1.0, 2.0]))
    assert capsys.readouterr().out == "loss 5.0\n"


def test_print_runs_once_with_value_and_grad(capsys):
    value, g = value_and_grad(noisy)(np.array([1.0, 2.0]))
    assert capsys.readouterr().out == "loss 5.0\n"
    assert value == 5.0 and np.allclose(g, [2.0, 4.0])


def loop_prints(x):
    for i in range(3):
        x = x * 1.5
        print(i)
    return np.sum(x)


def test_print_in_a_loop_runs_once_per_iteration(capsys):
    check_grad(loop_prints, (np.array([1.0, -2.0]),))
    capsys.readouterr()
    grad(loop_prints)(np.array([1.0, -2.0]))
    assert capsys.readouterr().out == "0\n1\n2\n"


LOG = logging.getLogger("thunkgrad.tests.side_effects")


def logs_value(x):
    y = np.sum(np.tanh(x))
    LOG.warning("y=%.3f", y)
    return y * 2.0


def test_logger_sees_the_primal_value(caplog):
    x = np.array([0.5, -0.25])
    with caplog.at_level(logging.WARNING):
        g = grad(logs_value)(x)
    assert [r.getMessage() for r in caplog.records] == [f"y={np.sum(np.tanh(x)):.3f}"]
    assert np.allclose(g, 2.0 * (1.0 - np.tanh(x) ** 2))


def reads_by_name(x):
    y = x * 2.0
    return eval("y") * x


def steps_an_iterator(x):
    it = iter([1.0, 2.0])
    return next(it) * x


@pytest.mark.parametrize("fn, hint", [(reads_by_name, "write the expression itself"),
                                      (steps_an_iterator, "loop over the sequence")])
def test_hidden_state_is_refused_at_the_line(fn, hint):
    with pytest.raises(TransformError) as info:
        grad(fn)(1.5)
    text = str(info.value)
    assert "test_side_effects.py" in text and "reads or changes state" in text
    assert hint in text
