"""A join's cotangent cut from a buffer the code owns goes back into that buffer
(transform/optimize/reused_buffers.py, the mark in transform/reverse/fresh_buffers.py
owned_cuts, runtime reused_cotangent).

`u = np.concatenate([u[:1], mid, u[-1:]])` in a loop: the new u's cotangent du is cut
into views, and the old u's adjoint was fresh zeros the views were written back into at
their own places. Where du is an array buffer the code owns and no view is read after
the first other write, du is kept (`du = reused_cotangent(du, u)`).

Where it must not apply: du a spread or a cotangent handed in (not owned), a branch
joining other forms, and (in test_reused_buffers_pass.py, on the pass alone) a view
read after the first in-place write, a view passed to a call or captured, regions that
differ or leave a gap. Every program runs against finite differences under every policy.
"""
import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_function, rng
from transform import grad, vjp
from transform.api import _wrt_names, compiled, signature_of


def specialised(fn, wrt, args, policy="loop"):
    names, _ = _wrt_names(fn, wrt)
    return compiled(fn, names, policy, signature=signature_of(args)).source


def heat(u, k, steps):
    for _ in range(steps):
        lap = u[2:] - 2 * u[1:-1] + u[:-2]
        u = np.concatenate([u[:1], u[1:-1] + k * lap, u[-1:]])
    return np.sum(u ** 2)


def heat_sum(u, k, steps):
    for _ in range(steps):              # du starts as np.sum's spread: never written into
        lap = u[2:] - 2 * u[1:-1] + u[:-2]
        u = np.concatenate([u[:1], u[1:-1] + k * lap, u[-1:]])
    return np.sum(u)


def heat_out(u, k, steps):
    for _ in range(steps):              # du starts as the cotangent handed in
        lap = u[2:] - 2 * u[1:-1] + u[:-2]
        u = np.concatenate([u[:1], u[1:-1] + k * lap, u[-1:]])
    v = u
    return v


def heat_branch(u, k, steps, flag):
    for _ in range(steps):
        lap = u[2:] - 2 * u[1:-1] + u[:-2]
        if flag:
            u = np.concatenate([u[:1], u[1:-1] + k * lap, u[-1:]])
        else:
            u = u * 0.9
    return np.sum(u ** 2)


def heat_rows(A, k, steps):
    for _ in range(steps):              # a 2-D join on axis 1: tuple indices
        lap = A[:, 2:] - 2 * A[:, 1:-1] + A[:, :-2]
        A = np.concatenate([A[:, :1], A[:, 1:-1] + k * lap, A[:, -1:]], axis=1)
    return np.sum(A ** 2)


def shifted(u, k, steps):
    for _ in range(steps):              # parts not at their own places: u[1:] goes first
        u = np.concatenate([u[1:] * k, u[:1]])
    return np.sum(u ** 2)


def reads_late(u, k, steps):
    for _ in range(steps):              # the first part's cotangent meets a later read
        lap = u[2:] - 2 * u[1:-1] + u[:-2]
        u = np.concatenate([u[:1] * k, u[1:-1] + k * lap + u[:1], u[-1:]])
    return np.sum(u ** 2)


def two_steps(u, k, steps):
    for _ in range(steps):              # two sites in one loop body
        lap = u[2:] - 2 * u[1:-1] + u[:-2]
        u = np.concatenate([u[:1], u[1:-1] + k * lap, u[-1:]])
        lap = u[2:] - u[1:-1]
        u = np.concatenate([u[:1], u[1:-1] + k * lap, u[-1:]])
    return np.sum(u ** 2)


def two_joins(u, k, steps):
    for _ in range(steps):              # the middle parts' reads add before they write
        u = np.concatenate([u[:1], u[1:-1] + k * (u[2:] - 2 * u[1:-1] + u[:-2]), u[-1:]])
        u = np.concatenate([u[:1], u[1:-1] * 0.9 + k * u[2:], u[-1:]])
    return np.sum(u ** 2)


def upcast(u, k, steps):
    for _ in range(steps):              # float32 u becomes float64: the cut is cast
        lap = u[2:] - 2 * u[1:-1] + u[:-2]
        u = np.concatenate([u[:1], u[1:-1] + k * lap, u[-1:]])
    return np.sum(u ** 2)


_U = np.linspace(0.0, 1.0, 8) ** 2 + 0.1
_A = rng("reuse_rows").normal(size=(3, 6))
CASES = [
    (heat, (_U, 0.2, 3), (0, 1)),
    (heat_sum, (_U, 0.2, 3), (0, 1)),
    (heat_out, (_U, 0.2, 3), (0, 1)),
    (heat_branch, (_U, 0.2, 3, True), (0, 1)),
    (heat_branch, (_U, 0.2, 3, False), (0, 1)),
    (heat_rows, (_A, 0.3, 2), (0, 1)),
    (shifted, (_U, 0.7, 3), (0, 1)),
    (reads_late, (_U, 0.3, 3), (0, 1)),
    (two_joins, (_U, 0.3, 3), (0, 1)),
    (two_steps, (_U, 0.3, 3), (0, 1)),
]
FLOAT32 = [(heat, (_U.astype(np.float32), 0.2, 3)),
           (upcast, (_U.astype(np.float32), np.float64(0.2), 3))]


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn,args,wrt", CASES,
                         ids=[f"{c[0].__name__}{k}" for k, c in enumerate(CASES)])
def test_against_finite_differences(fn, args, wrt, policy):
    check_function(fn, list(args), wrt if len(wrt) > 1 else wrt[0], policy)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn,args", FLOAT32, ids=["heat", "upcast"])
def test_float32_against_float64(fn, args, policy):
    """A float32 loss's central difference is noise at any step: the float32 gradient is
    held to the float64 one (itself checked against finite differences above)."""
    du, dk = grad(fn, (0, 1), policy=policy)(*args)
    want = grad(fn, (0, 1), policy=policy)(args[0].astype(float), float(args[1]), args[2])
    assert du.dtype == np.float32
    np.testing.assert_allclose(du, want[0], rtol=2e-5, atol=1e-6)
    np.testing.assert_allclose(dk, want[1], rtol=2e-5)


def test_heat_keeps_its_buffer():
    text = specialised(heat, ("u", "k"), CASES[0][1])
    assert "du = reused_cotangent(du, u)" in text and "cotangent_zeros(u)" not in text
    for gone in ("du[0:1]", "du[7:8]", "du[-1:] = ", "du[:1] = ", "du[1:-1] = "):
        assert gone not in text
    assert "du[1:7]" in text                    # the view read by vdot and `* k`


def test_two_steps_keep_their_buffer_twice():
    text = specialised(two_steps, ("u", "k"), CASES[-1][1])
    assert text.count("du = reused_cotangent(du, u)") == 2 and "cotangent_zeros(u)" not in text


def test_rows_keep_their_buffer():
    text = specialised(heat_rows, ("A", "k"), CASES[5][1])
    assert "dA = reused_cotangent(dA, A)" in text and "dA[:, 0:1]" not in text


@pytest.mark.parametrize("fn,args", [(heat_sum, CASES[1][1]), (heat_out, CASES[2][1]),
                                     (heat_branch, CASES[3][1]), (shifted, CASES[6][1]),
                                     (reads_late, CASES[7][1]),
                                     (two_joins, CASES[8][1])],
                         ids=["spread", "handed_in", "branch", "shifted", "reads_late",
                              "two_joins"])
def test_cases_that_keep_fresh_zeros(fn, args):
    assert "reused_cotangent" not in specialised(fn, ("u", "k"), args)


@pytest.mark.parametrize("policy", ["eager", "flat", "nested"])
def test_other_policies_keep_fresh_zeros(policy):
    assert "reused_cotangent" not in specialised(heat, ("u", "k"), CASES[0][1], policy)


@pytest.mark.parametrize("policy", POLICIES)
def test_a_handed_in_cotangent_is_never_written(policy):
    u = rng("reuse_ro").normal(size=6)
    g = rng("reuse_ro", 1).normal(size=6)
    g.flags.writeable = False
    before = g.copy()
    _, pullback = vjp(heat_out, u, 0.2, 3, wrt=(0, 1), policy=policy)
    du, dk = pullback(g)
    np.testing.assert_array_equal(g, before)
    _, fresh = vjp(heat_out, u, 0.2, 3, wrt=(0, 1), policy="eager")
    np.testing.assert_allclose(du, fresh(g.copy())[0], rtol=1e-12)


def test_float32_keeps_its_buffer_in_the_code():
    assert "reused_cotangent" in specialised(upcast, ("u", "k"), FLOAT32[1][1])
