"""Checkpointed `while` loops and loops with `break`/`continue`: the gradient equals the
unmarked loop's (1e-12 relative; bitwise where the operations run in the same order:
an invariant read once per step, else the step adds its own contributions before the
driver adds them to the others) and central finite differences, under every policy,
for several snapshot counts and trip counts (0 and 1 among them)."""
import numpy as np
import pytest

from runtime import online, revolve
from tests.checkpoint import online_cases as C
from tests.gradcheck import POLICIES, check_grad, rng
from transform import checkpoint_stats, grad, jvp

policies = pytest.mark.parametrize("policy", POLICIES)


def _same(name, args, s, wrt, policy=None, fd=True):
    with checkpoint_stats() as stats:
        got = grad(getattr(C, name + "_ck"), wrt, policy=policy)(*args, s)
    want = grad(getattr(C, name), wrt, policy=policy)(*args)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-12, atol=1e-300)
    if fd:
        check_grad(getattr(C, name + "_ck"), list(args) + [s], wrt=wrt, policy=policy)
    return stats


@pytest.mark.parametrize("n", [0, 1, 9])
@pytest.mark.parametrize("s", [1, 3, 12])
def test_counted_while(n, s):
    stats = _same("counted", (0.3, 0.9, n), s, (0, 1))
    assert stats.steps == stats.advances == stats.reversed == n and stats.loops == 1
    assert stats.recomputed == online.recomputations(n, s)
    assert stats.peak_snapshots <= s


@pytest.mark.parametrize("s", [1, 4])
def test_newton_until_converged(s):
    stats = _same("newton", (1.0, 2.0), s, (0, 1))
    x, steps = 1.0, 0
    while abs(x * x - 2.0) > 1e-10:
        x, steps = 0.5 * (x + 2.0 / x), steps + 1
    assert stats.steps == steps == 4
    g = grad(C.newton_ck, 1)(1.0, 2.0, s)
    assert g == pytest.approx(0.5 / np.sqrt(2.0), rel=1e-9)


@pytest.mark.parametrize("n", [2, 40])
@pytest.mark.parametrize("s", [1, 3])
def test_while_with_break_and_continue(n, s):
    for w in (0.6, 1.3):
        _same("jumps", (0.2, w, n), s, (0, 1))


@pytest.mark.parametrize("n", [0, 1, 3, 25])
@pytest.mark.parametrize("s", [1, 5])
def test_for_with_break(n, s):
    stats = _same("for_break", (0.3, 0.7, n), s, (0, 1))
    assert stats.steps == _trips(0.3, 0.7, n)
    assert stats.recomputed == online.recomputations(stats.steps, s)


def _trips(x, w, n):
    """The steps for_break runs: up to and with the one that breaks."""
    for t in range(n):
        x = np.tanh(w * x) + 0.1 * t
        if x > 0.9:
            return t + 1
        x = x if t % 2 else x * 1.01
    return n


@pytest.mark.parametrize("s", [1, 6])
def test_array_rows_with_break(s):
    r = rng("online.rows", s)
    xs, w = r.normal(size=(8, 3)), 0.5 * r.normal(size=(3, 3))
    _same("rows_break", (xs, w), s, (0, 1))
    _same("rows_break", (xs + 0.4, w), s, (0, 1))      # (breaks earlier)


@pytest.mark.parametrize("kind", [list, tuple])
@pytest.mark.parametrize("s", [1, 3])
def test_continue_keeps_the_binomial_schedule(kind, s):
    xs = kind([0.5, -1.5, 0.2, 0.7, -0.1, 0.9])
    stats = _same("items_continue", (xs, 0.8), s, (0, 1))
    assert stats.recomputed == revolve.recomputations(len(xs), s)


@pytest.mark.parametrize("s", [1, 5])
def test_nested_loops_outer_checkpointed(s):
    _same("nested", (0.3, 0.8, 6), s, (0, 1))


@pytest.mark.parametrize("s", [1, 3])
def test_marked_while_inside_a_marked_for(s):
    _same("while_inside", (0.3, 0.8, 5), s, (0, 1))


@pytest.mark.parametrize("w", [0.3, 0.8])
def test_loop_calling_a_helper(w):
    _same("calls", (0.3, w, 8), 2, (0, 1))


@pytest.mark.parametrize("w", [1.1, 1.6])
def test_marked_while_inside_a_plain_loop_break_in_with(w):
    stats = _same("in_plain_loop", (0.3, w, 4), 2, (0, 1))
    assert stats.loops == 4                      # (one per round of the plain loop)


def test_break_in_an_inner_loops_else_leaves_the_marked_loop():
    for x in (0.3, 1.0, 4.9):
        _same("else_break", (x, 6), 2, (0,))


@policies
def test_every_policy(policy):
    """The step compiled under each accumulation policy (the other tests: the default)."""
    for name, args, wrt in [("counted", (0.3, 0.9, 5), (0, 1)),
                            ("jumps", (0.2, 1.3, 12), (0, 1)),
                            ("for_break", (0.3, 0.7, 25), (0, 1)),
                            ("nested", (0.3, 0.8, 4), (0, 1)),
                            ("rows_break", (np.linspace(-1, 1, 12).reshape(4, 3),
                                            np.eye(3) * 0.5), (0, 1))]:
        _same(name, args, 2, wrt, policy)


@pytest.mark.parametrize("s", [1, 4, 9])
def test_array_carry_until_a_threshold(s):
    r = rng("online.heat", s)
    u = r.normal(size=10)
    u = u - np.mean(u)          # (diffusion drives the energy to 10 mean^2: here 0)
    target = 0.05 * np.sum(u * u)
    stats = _same("heat", (u, np.full(10, 0.9), target), s, (0, 1))
    assert stats.steps > 3 and stats.recomputed == online.recomputations(stats.steps, s)


def test_plain_python_runs_the_loops():
    assert C.counted_ck(0.3, 0.9, 7, 2) == C.counted(0.3, 0.9, 7)
    assert C.jumps_ck(0.2, 1.3, 40, 2) == C.jumps(0.2, 1.3, 40)
    assert C.for_break_ck(0.3, 0.7, 25, 2) == C.for_break(0.3, 0.7, 25)
    with pytest.raises(ValueError, match="snapshots"):
        C.counted_ck(0.3, 0.9, 7, 0)


def test_forward_mode_runs_the_while_loop_plainly():
    got = jvp(C.jumps_ck, (0.2, 1.3, 40, 2), (1.0, 0.5), wrt=(0, 1))
    want = jvp(C.jumps, (0.2, 1.3, 40), (1.0, 0.5), wrt=(0, 1))
    assert np.array_equal(got[0], want[0]) and np.allclose(got[1], want[1], rtol=1e-12)


def test_value_and_grad_and_vjp():
    from transform import value_and_grad, vjp
    v, g = value_and_grad(C.counted_ck, (0, 1))(0.3, 0.9, 6, 2)
    assert v == C.counted(0.3, 0.9, 6) and g == grad(C.counted, (0, 1))(0.3, 0.9, 6)
    out, pull = vjp(C.heat_ck, np.linspace(-1, 1, 6), np.ones(6), 0.5, 2, wrt=(0, 1))
    _, want = vjp(C.heat, np.linspace(-1, 1, 6), np.ones(6), 0.5, wrt=(0, 1))
    for c in (1.0, 2.0):
        for a, b in zip(pull(c), want(c)):
            np.testing.assert_allclose(a, b, rtol=1e-12)


BITWISE = [("counted", (0.3, 0.9, 9), (0, 1)), ("newton", (1.0, 2.0), (0, 1)),
           ("for_break", (0.3, 0.7, 25), (0, 1)), ("else_break", (0.3, 6), (0,))]


@pytest.mark.parametrize("name, args, wrt", BITWISE, ids=[b[0] for b in BITWISE])
@pytest.mark.parametrize("s", [1, 3])
def test_bitwise_where_the_operations_are_the_same(name, args, wrt, s):
    got = grad(getattr(C, name + "_ck"), wrt)(*args, s)
    want = grad(getattr(C, name), wrt)(*args)
    for g, w in zip(got, want):
        assert np.array_equal(np.asarray(g), np.asarray(w)), (g, w)
