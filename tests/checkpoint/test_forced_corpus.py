"""Every corpus case with an outermost `for` loop, and the benchmark loops at small
sizes, with checkpointing forced (tests/checkpoint/forced.py: memory_limit's marking,
2 snapshots): the gradient equals the unmarked one, bitwise or within 1e-12 relative
where the order of the additions differs (an invariant's cotangent summed by the driver
step by step). None may differ or fail; the loops left taped are counted, and the
count of checkpointed cases may only grow (2026-12-02: 165 of 297; session 34, loops
with `break` marked too: 176 of 297; cases whose outermost loops are `while` loops
only: 10 of 20)."""
import ast
import inspect
import textwrap

import numpy as np

from benchmarks import scientific_workloads as sw
from benchmarks import workloads as wl
from tests.checkpoint.forced import cotangents, difference, forced
from tests.corpus.case import all_cases
from tests.gradcheck import is_float_arg

CHECKPOINTED_AT_LEAST = 176
WHILE_CHECKPOINTED_AT_LEAST = 10


def _outermost_for(fn, kinds=(ast.For,)):
    """Whether fn's own body has a loop of `kinds` not inside another loop."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    except (OSError, TypeError, SyntaxError):
        return False
    stack = list(tree.body[0].body)
    while stack:
        s = stack.pop()
        if isinstance(s, kinds):
            return True
        if isinstance(s, (ast.For, ast.While, ast.FunctionDef, ast.AsyncFunctionDef,
                          ast.ClassDef)):
            continue
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            stack.extend(getattr(s, field, None) or [])
    return False


def _wrt(args, wrt):
    if wrt is None:
        return tuple(k for k, a in enumerate(args) if is_float_arg(a))
    return tuple(wrt) if isinstance(wrt, (list, tuple)) else (wrt,)


def _compare(fn, args, wrt, kwargs=None):
    """('same' | 'close' | 'taped', difference) of fn's forced gradient."""
    want, _ = cotangents(fn, args, wrt, kwargs)
    with forced(2):
        got, stats = cotangents(fn, args, wrt, kwargs, limit=1)
    if stats.loops == 0:
        return "taped", 0.0
    d = difference(got, want)
    assert d <= 1e-12, (fn.__qualname__, d)
    return ("same" if d == 0.0 else "close"), d


def test_corpus_loops_forced_checkpointed_equal_the_taped_gradient():
    seen = {"same": 0, "close": 0, "taped": 0}
    for case in all_cases():
        if case.refused or not _outermost_for(case.fn):
            continue
        args = case.inputs()
        kind, _ = _compare(case.fn, args, _wrt(args, case.wrt), case.kwargs)
        seen[kind] += 1
    assert seen["same"] + seen["close"] >= CHECKPOINTED_AT_LEAST, seen
    assert seen["same"] > seen["close"], seen        # most orders are the taped loop's


def test_corpus_while_loops_forced_checkpointed_equal_the_taped_gradient():
    """Session 34 (chunk): memory_limit marks `while` loops too (the online schedule;
    forced: 2 snapshots, every loop past its limit of 1 byte run again)."""
    seen = {"same": 0, "close": 0, "taped": 0}
    for case in all_cases():
        if case.refused or not _outermost_for(case.fn, (ast.While,)) or \
                _outermost_for(case.fn):
            continue
        args = case.inputs()
        kind, _ = _compare(case.fn, args, _wrt(args, case.wrt), case.kwargs)
        seen[kind] += 1
    assert seen["same"] + seen["close"] >= WHILE_CHECKPOINTED_AT_LEAST, seen


def _bench_cases():
    r = np.random.default_rng(3)
    lstm = sw.lstm_data(quick=True, hidden=3, inputs=2)
    return [
        (wl.bias_loop, wl.bias_data(n=7), (0, 1, 2)),
        (wl.scalar_loop, wl.scalar_loop_data(n=40), (0,)),
        (wl.rnn_loss, wl.rnn_data(steps=9, hidden=4, inputs=3), (0, 1, 2, 3, 4)),
        (sw.heat, sw.heat_data(quick=True, cells=12)[:2] + (30,), (0, 1)),
        (sw.heat_copy, sw.heat_data(quick=True, cells=12)[:2] + (30,), (0, 1)),
        (sw.lstm_loss, lstm[:6] + (lstm[6][:6],), tuple(range(6))),
        (sw.lstm_cell_loss, lstm[:6] + (lstm[6][:6],), tuple(range(6))),
        (sw.nbody, sw.nbody_data(quick=True, bodies=3)[:4] + (12,), (0, 1, 2, 3)),
        (sw.rk4, sw.rk4_data(quick=True, dim=4)[:3] + (15,), (0, 1, 2)),
        (sw.rk4_rhs, sw.rk4_data(quick=True, dim=4)[:3] + (15,), (0, 1, 2)),
        (wl.scalar_loop, (float(r.normal()), 1), (0,)),         # one step: no recompute
    ]


def test_benchmark_loops_forced_checkpointed_equal_the_taped_gradient():
    kinds = {fn.__name__: _compare(fn, args, wrt)[0] for fn, args, wrt in _bench_cases()}
    assert "taped" not in kinds.values(), kinds
