"""What runs when the function is left: `finally` blocks and `__exit__` run once on a
normal exit and before `return`/`break`/`continue`; when an exception leaves the
function, `__exit__` runs (runtime/contexts.py; more in test_with_exceptions.py) and,
since session 29, so does a `finally` block, once, on the values the variables had
when the exception left (transform/frontend/finally_blocks.py). With handlers, a
`finally` block reading a name the body or a handler binds still does not run then
(README's supported table). These tests pin each, so a change is seen."""
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


def finally_reads_progress(x):
    step = "start"
    try:
        y = np.sum(x * x)
        step = "summed"
        if y > 100.0:
            raise ValueError("too big")
        step = "checked"
    finally:
        EVENTS.append(step)
    return y


def finally_in_a_loop(x):
    total = 0.0
    for k in range(3):
        try:
            total = total + np.sum(np.sin(x)) * k
            if k == 0:
                continue
            if k == 2 and np.sum(x) > 20.0:
                raise ValueError("too big")
        finally:
            EVENTS.append(k)
    return total


def finally_after_handlers(x, text):
    try:
        scale = float(text)
    except KeyError:
        scale = 0.0
    finally:
        EVENTS.append(text)
    return np.sum(x) * scale


def finally_reads_a_handler_name(x, text):
    scale = 1.0
    try:
        scale = float(text)
    except KeyError:
        scale = 0.0
    finally:
        EVENTS.append(scale)
    return np.sum(x) * scale


@pytest.mark.parametrize("fn, primal_events, compiled_events",
                         [(with_block, ["enter", "exit"], ["enter", "exit"]),
                          (try_finally, ["finally"], ["finally"]),
                          (finally_reads_progress, ["summed"], ["summed"]),
                          (finally_in_a_loop, [0, 1, 2], [0, 1, 2])])
def test_exception_leaving_runs_exit_and_finally(fn, primal_events, compiled_events):
    big = np.full(3, 10.0)
    EVENTS.clear()
    with pytest.raises(ValueError, match="too big"):
        fn(big)
    assert EVENTS == primal_events           # Python runs them
    EVENTS.clear()
    with pytest.raises(ValueError, match="too big"):
        grad(fn)(big)
    assert EVENTS == compiled_events         # __exit__ runs, finally does not (README)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn", [finally_reads_progress, finally_in_a_loop])
def test_finally_on_normal_exit_runs_once_and_differentiates(fn, policy):
    x = np.full(3, 0.5)
    EVENTS.clear()
    fn(x)
    primal = list(EVENTS)
    EVENTS.clear()
    grad(fn, policy=policy)(x)
    assert EVENTS == primal
    check_function(fn, (x,), policy=policy)


@pytest.mark.parametrize("text, leaves", [("1.5", False), ("zz", True)])
def test_finally_after_handlers_runs_once_when_the_exception_leaves(text, leaves):
    x = np.full(3, 0.5)
    for run in (finally_after_handlers, grad(finally_after_handlers, wrt=("x",))):
        EVENTS.clear()
        if leaves:
            with pytest.raises(ValueError):
                run(x, text)
        else:
            run(x, text)
        assert EVENTS == [text]


def test_finally_reading_a_name_the_handlers_bind_does_not_run_when_left():
    """The body and handlers run in a function of their own: what they bound is not
    known when the exception leaves, so that block is not run (Python runs it)."""
    x = np.full(3, 0.5)
    EVENTS.clear()
    with pytest.raises(ValueError):
        finally_reads_a_handler_name(x, "zz")
    assert EVENTS == [1.0]
    EVENTS.clear()
    with pytest.raises(ValueError):
        grad(finally_reads_a_handler_name, wrt=("x",))(x, "zz")
    assert EVENTS == []
    grad(finally_reads_a_handler_name, wrt=("x",))(x, "2.0")
    assert EVENTS == [2.0]
