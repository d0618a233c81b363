"""The tape holds what the backward sweep needs and nothing more:
one scalar per iteration for a scalar loop, no copies of rows of an unchanged
array, nothing for values that are never overwritten."""
import inspect
import math
import re
import tracemalloc

import numpy as np
import pytest

import transform.api
from tests.gradcheck import POLICIES, check_grad
from transform import adjoint_source, grad


def scalar_loop(x, n):
    for i in range(n):
        x = x * 0.999 + 0.001 * math.sin(x)
    return x


def rows_sin_scaled(X, w, n):
    s = 0.0
    for i in range(n):
        s = s + np.sum(np.sin(X[i])) * w
    return s


def rows_sin(X, n):
    s = 0.0
    for i in range(n):
        s = s + np.sum(np.sin(X[i]))
    return s


def rows_dot(xs, w):
    s = 0.0
    for xi in xs:
        s = s + np.sum(xi * w)
    return s


def never_overwritten(W, x, n):
    a = np.tanh(W @ x)
    c = a * 2.0
    s = 0.0
    for i in range(n):
        b = c * i
        s = s + np.sum(b * a)
    return s


def _peak_bytes(call):
    call()  # compile outside the measurement
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        call()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak


def test_scalar_loop_tape_is_n_scalars():
    n = 100_000
    peak = _peak_bytes(lambda: grad(scalar_loop)(0.5, n))
    # a few Python floats and list slots per iteration, not arrays
    assert peak < 200 * n, peak


def test_scalar_loop_tape_grows_linearly():
    small = _peak_bytes(lambda: grad(scalar_loop)(0.5, 20_000))
    large = _peak_bytes(lambda: grad(scalar_loop)(0.5, 80_000))
    assert large < 6 * small + 100_000
    assert large > 2 * small


def test_row_loop_tape_holds_scalars_not_rows():
    n, d = 2000, 1000
    X = np.random.default_rng(0).normal(size=(n, d))
    X.setflags(write=False)
    row_bytes = n * d * 8
    peak = _peak_bytes(lambda: grad(rows_sin_scaled, wrt=1)(X, 0.5, n))
    assert peak < row_bytes / 20, (peak, row_bytes)
    peak_scalar = _peak_bytes(lambda: grad(scalar_loop)(0.5, n))
    assert peak < 50 * peak_scalar + 10 * d * 8


def test_row_loop_gradient_wrt_array_costs_one_gradient():
    n, d = 2000, 1000
    X = np.random.default_rng(1).normal(size=(n, d))
    X.setflags(write=False)
    row_bytes = n * d * 8
    peak = _peak_bytes(lambda: grad(rows_sin, wrt=0)(X, n))
    # the gradient itself is n*d floats; the tape must not add n more rows
    assert peak < 1.5 * row_bytes, (peak, row_bytes)


def test_iterating_unchanged_array_keeps_no_rows():
    n, d = 2000, 1000
    X = np.random.default_rng(2).normal(size=(n, d))
    X.setflags(write=False)
    w = np.ones(d)
    peak = _peak_bytes(lambda: grad(rows_dot, wrt=1)(X, w))
    assert peak < n * d * 8 / 20, peak


def _tape_of(fn, wrt, args, policy="loop"):
    rule = transform.api.compiled(fn, wrt, policy).rrule
    _, pullback = rule(*args)
    closure = inspect.getclosurevars(pullback).nonlocals
    return closure.get("tape", [])


def test_rows_not_on_the_tape_at_run_time():
    X = np.random.default_rng(3).normal(size=(50, 7))
    tape = _tape_of(rows_dot, ("w",), (X, np.ones(7)))
    arrays = [e for e in tape if isinstance(e, np.ndarray) and e.size > 1]
    assert arrays == []


@pytest.mark.parametrize("wrt", [("w",), ("xs", "w"), ("xs",)])
def test_no_tape_append_of_loop_element(wrt):
    src = adjoint_source(rows_dot, wrt=wrt)
    assert "tape.append(xi)" not in src
    assert not re.search(r"tape\.append\(\s*xi\s*\)", src)
    assert not re.search(r"tape\.append\([^)]*\bxs\b", src)


@pytest.mark.parametrize("policy", POLICIES)
def test_no_tape_append_of_loop_element_any_policy(policy):
    src = adjoint_source(rows_dot, wrt=("xs", "w"), policy=policy)
    assert "tape.append(xi)" not in src


@pytest.mark.parametrize("policy", POLICIES)
def test_values_never_overwritten_not_pushed(policy):
    src = adjoint_source(never_overwritten, wrt=("W", "x"), policy=policy)
    for name in ("a", "c", "W", "x"):
        assert not re.search(rf"tape\.append\((shape_only\()?{name}\)", src), (name, src)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("n", [0, 1, 4])
def test_values_never_overwritten_gradient(policy, n):
    rng = np.random.default_rng(4)
    check_grad(never_overwritten, [rng.normal(size=(3, 2)), rng.normal(size=2), n],
               policy=policy)


def straight_line(W, x):
    h = np.tanh(W @ x)
    return np.sum(h * h)


def test_straight_line_code_uses_no_tape():
    src = adjoint_source(straight_line, wrt=("W", "x"))
    assert "tape" not in src


def test_tape_length_proportional_to_iterations():
    t10 = _tape_of(scalar_loop, ("x",), (0.5, 10))
    t100 = _tape_of(scalar_loop, ("x",), (0.5, 100))
    assert len(t100) > len(t10) > 0
    assert len(t100) <= 10 * len(t10) + 10
    assert all(not isinstance(e, np.ndarray) for e in t100)


def test_tape_survives_two_pullbacks():
    rule = transform.api.compiled(scalar_loop, ("x",), "loop").rrule
    _, pullback = rule(0.5, 50)
    (g1,) = pullback(1.0)
    (g2,) = pullback(1.0)
    assert g1 == g2
