"""What runs when the function is left: `finally` blocks and `__exit__` run once on a
normal exit and before `return`/`break`/`continue`; when an exception leaves the
function, `__exit__` runs (runtime/contexts.py; more in test_with_exceptions.py) but a
`finally` block does not (documented in README's supported table: the forward sweep is
straight-line code with no handler of its own). These tests pin both, so a change to
either is seen."""
import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_function
from transform import grad

EVENTS = []


class Recorder:
    def __enter__(self):
        EVENTS.append("enter")
        return self

    def __exit__(self, *exc):
        EVENTS.append("exit")
        return False


def with_block(x):
    with Recorder():
        y = np.sum(x ** 2)
        if y > 100.0:
            raise ValueError("too big")
    return y * 2.0


def try_finally(x):
    try:
        y = np.sum(np.sin(x) + x * x)
        if y > 100.0:
            raise ValueError("too big")
    finally:
        EVENTS.append("finally")
    return y


def return_inside_try(x):
    try:
        y = np.sum(x ** 2)
        if y > 5.0:
            return y * 3.0
        return np.sum(np.cos(x)) * y
    finally:
        EVENTS.append("finally")


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn, events", [(with_block, ["enter", "exit"]),
                                        (try_finally, ["finally"]),
                                        (return_inside_try, ["finally"])])
def test_normal_exit_runs_finally_and_exit_once(fn, events, policy):
    EVENTS.clear()
    grad(fn, policy=policy)(np.full(3, 0.5))
    assert EVENTS == events


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("x", [np.full(3, 0.5), np.full(3, 2.0)])
def test_return_inside_try_finally_gradient(x, policy):
    check_function(return_inside_try, (x,), policy=policy)


@pytest.mark.parametrize("fn, primal_events, compiled_events",
                         [(with_block, ["enter", "exit"], ["enter", "exit"]),
                          (try_finally, ["finally"], [])])
def test_exception_leaving_runs_exit_not_finally(fn, primal_events, compiled_events):
    big = np.full(3, 10.0)
    EVENTS.clear()
    with pytest.raises(ValueError, match="too big"):
        fn(big)
    assert EVENTS == primal_events           # Python runs them
    EVENTS.clear()
    with pytest.raises(ValueError, match="too big"):
        grad(fn)(big)
    assert EVENTS == compiled_events         # __exit__ runs, finally does not (README)
