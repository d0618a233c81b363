"""A helper called inside a loop body gets the loop's accumulation decisions: under
"loop" its rule computes cotangents at once (a materialised variant), so the loop makes
no Thunks through the call; every policy still matches finite differences."""
import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_grad, rng
from transform import adjoint_source, grad, thunk_stats

from . import helpers_in_loops as h


def rk4_args():
    r = rng("rk4")
    return [r.normal(size=5), r.normal(size=5)]


def lstm_args(n=3, x=2, steps=4):
    r = rng("lstm")
    return [r.normal(size=(3 * n, x + n)) * 0.5, [r.normal(size=x) for _ in range(steps)],
            r.normal(size=n), r.normal(size=n)]


def pair_args():
    r = rng("pair")
    return [r.normal(size=4), r.normal(size=4)]


CASES = [
    (h.rk4, rk4_args, (0, 1)),
    (h.lstm, lstm_args, (0, 2, 3)),
    (h.with_keywords, pair_args, (0, 1)),
    (h.with_defaults, pair_args, (0, 1)),
    (h.nested, pair_args, (0, 1)),
    (h.recursive, pair_args, (0, 1)),
    (h.unused_second, pair_args, (0, 1)),
    (h.in_while, pair_args, (0, 1)),
    (h.in_branch, pair_args, (0, 1)),
]


def thunks_made(fn, args, wrt, policy):
    df = grad(fn, wrt=wrt, policy=policy)
    df(*args)                                  # compile outside the measurement
    with thunk_stats() as stats:
        df(*args)
    return stats.created


@pytest.mark.parametrize("fn,args,wrt", CASES, ids=[c[0].__name__ for c in CASES])
@pytest.mark.parametrize("policy", POLICIES)
def test_helpers_in_loops_match_finite_differences(fn, args, wrt, policy):
    check_grad(fn, args(), wrt=wrt, policy=policy)


@pytest.mark.parametrize("fn,args,wrt", CASES, ids=[c[0].__name__ for c in CASES])
def test_loops_through_helpers_make_no_thunks(fn, args, wrt):
    assert thunks_made(fn, args(), wrt, "loop") == 0


@pytest.mark.parametrize("fn,args,wrt", [CASES[0], CASES[1]], ids=["rk4", "lstm"])
def test_the_measurement_can_tell(fn, args, wrt):
    """"flat" never materialises: the same loops make thunks through their helpers."""
    assert thunks_made(fn, args(), wrt, "flat") > 0


def test_a_helper_outside_loops_stays_lazy():
    """Straight-line calls keep the deferred rule (a cotangent nobody reads is never
    computed): only calls in loop bodies get the materialised one."""
    def once(v, w):
        return np.sum(h.outer(v, w))
    assert thunks_made(once, pair_args(), (0, 1), "loop") > 0


def test_the_rule_says_it_is_for_a_loop_body():
    """(A helper called with a default left out: a small one passed every argument, like
    rk4's rhs, is inlined instead, test_inline_helpers.py.)"""
    from transform.public import cache
    grad(h.with_defaults, wrt=1)(*pair_args())
    headers = [r.source.splitlines()[0] for r in cache.rules_of(h.damped).values()]
    assert any("rule for a loop body" in line for line in headers), headers


def test_a_printing_helper_prints_once_a_call(capsys):
    args = pair_args()
    df = grad(h.printing, wrt=(0, 1), policy="loop")
    df(*args)
    capsys.readouterr()
    df(*args)
    assert capsys.readouterr().out.count("noisy") == 3
    for policy in POLICIES:
        check_grad(h.printing, args, wrt=(0, 1), policy=policy)


def test_explain_says_why_a_helper_computes_at_once():
    grad(h.rk4, wrt=1, policy="loop")(*rk4_args())
    from transform.public import cache
    from transform.api import compiled
    rule = compiled(h.rhs, ("y", "p"), "loop", explain=True, consumed=False,
                    varied=("y", "p"), materialised=True)
    assert "this callee is called in a loop body" in rule.source
    assert "Thunk(" not in rule.source
    assert "Thunk(" in adjoint_source(h.rhs, wrt=(0, 1), as_rule=True)
    assert cache.rules_of(h.rhs)
