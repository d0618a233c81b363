"""Checkpointed loops: the gradient equals the plain loop's (1e-12 relative: the step
cotangents are added in the same order, the invariants' into one buffer) and central
finite differences, under every policy, for several snapshot counts, n = 0 and 1."""
import numpy as np
import pytest

from tests.checkpoint import cases
from tests.gradcheck import POLICIES, check_grad, rng
from transform import checkpoint_stats, grad

policies = pytest.mark.parametrize("policy", POLICIES)


def _same(f_ck, f, args, s, wrt, policy):
    with checkpoint_stats() as stats:
        got = grad(f_ck, wrt, policy=policy)(*args, s)
    want = grad(f, wrt, policy=policy)(*args)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-12, atol=1e-300)
    check_grad(f_ck, list(args) + [s], wrt=wrt, policy=policy)
    return stats


@policies
@pytest.mark.parametrize("n", [0, 1, 2, 7])
@pytest.mark.parametrize("s", [1, 2, 3, 9])
def test_scalar_range(policy, n, s):
    stats = _same(cases.scalar_ck, cases.scalar, (0.3, 0.9, n), s, (0, 1), policy)
    assert stats.steps == n and stats.reversed == n and stats.peak_snapshots <= s


@policies
@pytest.mark.parametrize("s", [1, 3, 12])
def test_array_carry(policy, s):
    r = rng("checkpoint.heat", s)
    args = (r.normal(size=8), r.uniform(0.5, 1.0, size=8), 0.2, 10)
    _same(cases.heat_ck, cases.heat, args, s, (0, 1, 2), policy)


@policies
@pytest.mark.parametrize("s", [1, 2, 6])
def test_array_rows(policy, s):
    r = rng("checkpoint.rows", s)
    _same(cases.rows_ck, cases.rows, (r.normal(size=(5, 3)), 0.5 * r.normal(size=(3, 3))),
          s, (0, 1), policy)


@policies
@pytest.mark.parametrize("kind", [list, tuple])
@pytest.mark.parametrize("s", [1, 2, 4])
def test_list_and_tuple(policy, kind, s):
    _same(cases.items_ck, cases.items, (kind([0.5, 1.5, -0.2, 0.7]), 0.8), s, (0, 1),
          policy)


@policies
@pytest.mark.parametrize("s", [1, 2, 5])
def test_nested_loop(policy, s):
    _same(cases.nested_ck, cases.nested, (0.3, 0.8, 5), s, (0, 1), policy)


@policies
@pytest.mark.parametrize("w", [0.3, 0.8])
def test_loop_calling_a_helper(policy, w):
    _same(cases.calls_ck, cases.calls, (0.3, w, 6), 2, (0, 1), policy)


@policies
@pytest.mark.parametrize("s", [1, 3])
def test_writes_into_the_carry(policy, s):
    r = rng("checkpoint.in_place", s)
    _same(cases.in_place_ck, cases.in_place, (r.normal(size=5), 0.9, 6), s, (0, 1), policy)


@policies
def test_inner_loop_marked_too(policy):
    _same(cases.inner_marked_ck, cases.inner_marked, (0.3, 4), 2, (0,), policy)


def test_plain_python_runs_the_loop():
    assert cases.scalar_ck(0.3, 0.9, 7, 2) == cases.scalar(0.3, 0.9, 7)
    with pytest.raises(ValueError, match="snapshots"):
        cases.scalar_ck(0.3, 0.9, 7, 0)


@policies
@pytest.mark.parametrize("s", [1, 3])
def test_marked_loop_inside_a_plain_loop(policy, s):
    _same(cases.inside_plain_ck, cases.inside_plain, (0.3, 4), s, (0,), policy)


@policies
def test_comprehension_and_lambda_in_the_body(policy):
    _same(cases.scopes_ck, cases.scopes, (0.3, [0.5, 1.5], 4), 2, (0, 1), policy)


BITWISE = [("scalar", (0.3, 0.9, 7), (0, 1)), ("items", ([0.5, 1.5, -0.2], 0.8), (0, 1)),
           ("nested", (0.3, 0.8, 5), (0, 1)), ("calls", (0.3, 0.8, 6), (0, 1)),
           ("in_place", (np.linspace(-1.0, 1.0, 5), 0.9, 6), (0, 1))]


@pytest.mark.parametrize("name, args, wrt", BITWISE, ids=[b[0] for b in BITWISE])
@pytest.mark.parametrize("s", [1, 3])
def test_bitwise_where_the_operations_are_the_same(name, args, wrt, s):
    """The step runs the loop body's own operations in the same order, and the
    invariants' cotangents are added step by step backwards as the loop pass does."""
    got = grad(getattr(cases, name + "_ck"), wrt)(*args, s)
    want = grad(getattr(cases, name), wrt)(*args)
    for g, w in zip(got, want):
        assert np.array_equal(np.asarray(g), np.asarray(w)), (g, w)


def test_object_invariant():
    got = grad(cases.record_ck, (0, 1))(0.3, cases.Params(0.8), 4, 2)
    want = grad(cases.record, (0, 1))(0.3, cases.Params(0.8), 4)
    assert got[0] == want[0] and got[1]["w"] == want[1]["w"] != 0.0


@policies
@pytest.mark.parametrize("s", [1, 2])
def test_carry_unused_after_the_loop(policy, s):
    _same(cases.unused_carry_ck, cases.unused_carry, (0.3, 5), s, (0,), policy)


@policies
@pytest.mark.parametrize("s", [1, 2, 4])
def test_invariant_cotangent_is_the_seed_itself(policy, s):
    """`u = u + w`: the step hands g back for both u and w; the invariant's buffer must
    be the driver's own copy, or adding into it changes the carry's cotangent."""
    _same(cases.plus_ck, cases.plus, (np.ones(3), np.arange(3.0), 3), s, (0, 1), policy)


@policies
def test_closure_made_before_the_loop(policy):
    _same(cases.closure_ck, cases.closure, (0.3, 0.8, 4), 2, (0, 1), policy)


def test_vjp_pullback_called_twice():
    """The invariants' buffers are the pullback call's own: a second call starts at 0."""
    from transform import vjp
    u, w = np.linspace(0.0, 1.0, 4), np.linspace(0.5, 1.0, 4)
    _, marked = vjp(cases.heat_ck, u, w, 0.3, 5, 2, wrt=(0, 1, 2))
    _, plain = vjp(cases.heat, u, w, 0.3, 5, wrt=(0, 1, 2))
    for c in (1.0, 2.0, 1.0):
        for got, want in zip(marked(c), plain(c)):
            np.testing.assert_allclose(got, want, rtol=1e-12)
