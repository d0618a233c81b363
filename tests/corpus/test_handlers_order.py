"""What the corpus's finite differences cannot see in tests/corpus/handlers.py: `__exit__`
runs once per way out, in the primal's order, under every policy; a try statement's
function refuses at run time a write into a value it was given; an exception from a
try body names the user's line."""
import traceback

import numpy as np
import pytest

from tests.gradcheck import POLICIES
from transform import grad

from . import handlers

WITH_CASES = [(handlers.with_left_by_return_in_a_branch, np.array([0.3, -1.2, 2.0])),
              (handlers.with_left_by_break_and_continue_scalar, 0.7),
              (handlers.with_inside_a_loop_inside_the_with, np.arange(4.0)),
              (handlers.with_around_try_finally_return, np.ones(3)),
              (handlers.with_around_try_continue_finally, np.ones(3))]


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn, x", WITH_CASES, ids=lambda v: getattr(v, "__name__", ""))
def test_exits_run_as_in_the_primal(fn, x, policy, capsys):
    args = (x, ["1", "q", "2"]) if fn is handlers.with_around_try_continue_finally else (x,)
    handlers.LOG.clear()
    fn(*args)
    expected = list(handlers.LOG), capsys.readouterr().out
    handlers.LOG.clear()
    grad(fn, wrt=0, policy=policy)(*args)
    assert (handlers.LOG, capsys.readouterr().out) == expected
    assert expected.count(("exit", "outer")) <= 1


def writing_helper(a):
    a[0] = 5.0
    return 1.0


def try_calls_a_writing_helper(x):
    w = np.ones(3)
    y = np.sum(x * w)
    try:
        v = writing_helper(w)
    except ValueError:
        v = 0.0
    return y * v


def test_a_write_by_a_helper_inside_try_is_refused_at_run_time():
    with pytest.raises(RuntimeError, match=r"test_handlers_order.py:\d+: the try statement "
                                           r"changed `w` in place"):
        grad(try_calls_a_writing_helper)(np.ones(3))


def try_raises_uncaught(x, key):
    try:
        w = {"a": 1.0}[key]
    except ZeroDivisionError:
        w = 0.0
    return x * w


def test_an_uncaught_exception_names_the_users_line():
    with pytest.raises(KeyError) as info:
        grad(try_raises_uncaught, wrt=0)(1.0, "b")
    frames = traceback.extract_tb(info.value.__traceback__)
    assert any(f.filename == __file__ and f.line.strip() == 'w = {"a": 1.0}[key]'
               for f in frames)


def try_counts_failures(x, texts):
    failures = 0
    total = 0.0
    for t in texts:
        try:
            v = float(t)
        except ValueError:
            failures += 1
            v = 0.0
        total = total + v * x
    return total * (failures + 1)


@pytest.mark.parametrize("policy", POLICIES)
def test_handler_runs_per_trip_as_in_the_primal(policy):
    texts = ["1.5", "x", "2", "?"]
    g = grad(try_counts_failures, wrt=0, policy=policy)(0.3, texts)
    assert g == pytest.approx((1.5 + 2.0) * 3)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn, x", [
    (handlers.generator_prints_loop_quiet, np.ones(3)),
    (handlers.loop_prints_generator_quiet_scalar, 0.5),
    (handlers.generator_and_loop_both_print, 0.5),
    (handlers.generator_and_loop_helper_both_print, np.ones(2)),
    (handlers.generator_with_return_yield_from_and_continue, np.ones(3)),
    (handlers.generator_stopped_early_by_return_scalar, 0.5),
    (handlers.generator_walked_in_a_nested_loop, np.ones(2))],
    ids=["generator", "loop", "both", "helper", "return-yield-from", "stopped", "nested"])
def test_prints_keep_their_order(fn, x, policy, capsys):
    fn(x)
    expected = capsys.readouterr().out
    grad(fn, policy=policy)(x)
    assert capsys.readouterr().out == expected


def walrus_order(x):
    y = report_and_return(1.0, x) + (n := report_and_return(2.0, x)) * \
        report_and_return(3.0, n)
    return y


def report_and_return(tag, v):
    print("step", tag)
    return v * tag


@pytest.mark.parametrize("policy", POLICIES)
def test_walrus_keeps_the_order_of_calls(policy, capsys):
    walrus_order(0.5)
    expected = capsys.readouterr().out
    g = grad(walrus_order, policy=policy)(0.5)
    assert capsys.readouterr().out == expected
    assert g == pytest.approx(1.0 + 24.0 * 0.5)          # y = x + 2x * 3 (2x)
