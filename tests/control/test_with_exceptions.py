"""`with` blocks in compiled code when an exception leaves the function: each open
manager's `__exit__` runs once, innermost first, given the exception, as in Python
(runtime/contexts.py); on a normal exit, once with (None, None, None)."""
import warnings

import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_function
from transform import grad

EVENTS = []


class Recorder:
    def __init__(self, tag):
        self.tag = tag

    def __enter__(self):
        EVENTS.append(("enter", self.tag))
        return self

    def __exit__(self, kind, exc, tb):
        EVENTS.append(("exit", self.tag, kind))
        return False


def nested_withs(x):
    with Recorder("outer"):
        y = np.sum(x ** 2)
        with Recorder("inner"):
            if y > 100.0:
                raise ValueError("too big")
            z = y * np.sum(np.sin(x))
    return z


def helper_with(x):
    with Recorder("helper"):
        y = np.sum(np.tanh(x))
        if y > 2.5:
            raise ValueError("too big")
    return y


def calls_helper_in_loop(x):
    total = 0.0
    for k in range(2):
        total = total + helper_with(x * (k + 1))
    return total


def errstate_then_raise(x):
    with np.errstate(divide="ignore"):
        y = np.sum(np.log(x ** 2))
        if y > 10.0:
            raise ValueError("too big")
    return y


def with_in_loop(x):
    total = 0.0
    for k in range(3):
        with Recorder(k):
            total = total + np.sum(x * k)
            if total > 50.0:
                raise ValueError("too big")
    return total


@pytest.mark.parametrize("policy", POLICIES)
def test_nested_exit_innermost_first_with_the_exception(policy):
    EVENTS.clear()
    with pytest.raises(ValueError, match="too big"):
        grad(nested_withs, policy=policy)(np.full(3, 10.0))
    assert EVENTS == [("enter", "outer"), ("enter", "inner"), ("exit", "inner", ValueError),
                      ("exit", "outer", ValueError)]


@pytest.mark.parametrize("policy", POLICIES)
def test_normal_exit_once_without_exception(policy):
    EVENTS.clear()
    check_function(nested_withs, (np.full(3, 0.5),), policy=policy)
    assert ("exit", "inner", ValueError) not in EVENTS
    assert EVENTS.count(("exit", "inner", None)) == EVENTS.count(("enter", "inner"))


def test_helper_called_from_compiled_code_exits():
    x = np.full(3, 2.0)        # the second trip raises inside the helper
    EVENTS.clear()
    with pytest.raises(ValueError):
        calls_helper_in_loop(x)
    primal = list(EVENTS)
    EVENTS.clear()
    with pytest.raises(ValueError):
        grad(calls_helper_in_loop)(x)
    assert EVENTS == primal


def test_numpy_error_state_restored_after_exception():
    before = np.geterr()
    with pytest.raises(ValueError):
        grad(errstate_then_raise)(np.full(3, 100.0))
    assert np.geterr() == before


@pytest.mark.parametrize("policy", POLICIES)
def test_with_in_loop_exits_every_trip(policy):
    EVENTS.clear()
    with pytest.raises(ValueError):
        grad(with_in_loop, policy=policy)(np.full(3, 10.0))
    assert EVENTS == [("enter", 0), ("exit", 0, None), ("enter", 1), ("exit", 1, None),
                      ("enter", 2), ("exit", 2, ValueError)]
    check_function(with_in_loop, (np.full(3, 0.5),), policy=policy)


def test_later_calls_start_with_nothing_open():
    from runtime.contexts import open_count
    with pytest.raises(ValueError):
        grad(nested_withs)(np.full(3, 10.0))
    assert open_count() == 0
    with warnings.catch_warnings():
        check_function(nested_withs, (np.full(3, 0.5),))
    assert open_count() == 0


def inner_closed_then_raise(x):
    with Recorder("outer"):
        with Recorder("inner"):
            y = np.sum(x ** 2)
        if y > 100.0:                  # after the inner block closed normally
            raise ValueError("too big")
    return y


@pytest.mark.parametrize("policy", POLICIES)
def test_outer_still_open_after_its_inner_block_closed(policy):
    """Closing the inner manager leaves the outer one open: the exception that leaves
    later reaches the outer __exit__ (runtime/contexts.py exit_context removes only the
    manager it closes, found from the top)."""
    EVENTS.clear()
    with pytest.raises(ValueError, match="too big"):
        grad(inner_closed_then_raise, policy=policy)(np.full(3, 10.0))
    assert EVENTS == [("enter", "outer"), ("enter", "inner"), ("exit", "inner", None),
                      ("exit", "outer", ValueError)]
