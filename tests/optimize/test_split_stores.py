"""The cotangent of an element store `x[1:-1] = v` split without a helper call
(transform/reverse/slice_adds.py `split_written_out`): where dx is an array buffer the
code owns, x has a known shape and the index is literal slices, `dx_part = dx[1:-1].copy()`
and `dx[1:-1] = 0` replace `setitem_vjp(dx, np.s_[1:-1], True)`. Every program runs
against finite differences under every policy; the specialised rule is asked how often
it calls setitem_vjp.
"""
import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_function, rng
from transform.api import _wrt_names, compiled, signature_of


def heat_copy(u, k, steps):
    for _ in range(steps):
        un = u.copy()
        un[1:-1] = u[1:-1] + k * (u[2:] - 2 * u[1:-1] + u[:-2])
        u = un
    return np.sum(np.sin(u) * u)


def block_steps(A, v, steps):
    for _ in range(steps):
        B = A.copy()
        B[1:, :2] = np.tanh(v) * A[1:, :2]      # a 2-D block: v broadcast along the rows
        A = B
    return np.sum(A ** 2)


def strided_steps(x, s, steps):
    for _ in range(steps):
        y = x.copy()
        y[::2] = s * np.cos(x[1::2])
        x = y
    return np.sum(np.sin(x) * x)


def scalar_steps(x, s, steps):
    for _ in range(steps):
        y = x * 1.1
        y[1:3] = s * 2.0                     # one number into two positions
        x = y
    return np.sum(np.exp(x))


def block_store(A, v):
    B = A * 1.5                              # dB is not a buffer the code owns: the helper
    B[1:, :2] = np.tanh(v)                   # (unreduce's spread of the sum's cotangent)
    return np.sum(B)


def fresh_block_store(A, v):
    B = A * 1.5                              # dB = g * 2 * B, a fresh array of B's shape:
    B[1:, :2] = np.tanh(v)                   # owned (transform/reverse/fresh_buffers.py)
    return np.sum(B ** 2)


def int_index_store(x, s):
    y = np.sin(x)
    y[0] = s * 3.0                       # an integer index: setitem_vjp, as before
    return np.sum(y * y)


CASES = [
    (heat_copy, lambda r: [r.normal(size=7), 0.2, 3], (0, 1), 0),
    (block_steps, lambda r: [r.normal(size=(3, 4)), r.normal(size=2), 3], (0, 1), 0),
    (strided_steps, lambda r: [r.normal(size=6), 0.7, 3], (0, 1), 0),
    (scalar_steps, lambda r: [r.normal(size=5), 0.3, 3], (0, 1), 0),
    (block_store, lambda r: [r.normal(size=(3, 4)), r.normal(size=2)], (0, 1), 1),
    (fresh_block_store, lambda r: [r.normal(size=(3, 4)), r.normal(size=2)], (0, 1), 0),
    (int_index_store, lambda r: [r.normal(size=4), 0.4], (0, 1), 1),
]
IDS = [c[0].__name__ for c in CASES]


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn,make,wrt,calls", CASES, ids=IDS)
def test_gradients_match_finite_differences(fn, make, wrt, calls, policy):
    check_function(fn, make(rng("split_stores", fn.__name__)), wrt, policy)


@pytest.mark.parametrize("fn,make,wrt,calls", CASES, ids=IDS)
def test_setitem_vjp_calls_per_store(fn, make, wrt, calls):
    args = make(rng("split_stores", fn.__name__))
    params = fn.__code__.co_varnames[:fn.__code__.co_argcount]
    names, _ = _wrt_names(fn, tuple(params[k] for k in wrt))
    rule = compiled(fn, names, "loop", signature=signature_of(args))
    free = dict(zip(rule.rrule.__code__.co_freevars, rule.rrule.__closure__ or ()))
    cell, seen = free.get("setitem_vjp"), []      # the helpers are the rule's free names
    original = None if cell is None else cell.cell_contents
    if cell is not None:
        cell.cell_contents = lambda *a: seen.append(1) or original(*a)
    try:
        rule.rrule(*args)[1](1.0)
    finally:
        if cell is not None:
            cell.cell_contents = original
    stores = args[2] if len(args) == 3 else 1
    assert len(seen) == calls * stores
