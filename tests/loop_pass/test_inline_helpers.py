"""A small module-level helper called in a loop body is inlined (its body becomes the
caller's: no rule call, no shape stand-ins); one the compiler cannot show it may inline
is called as its rule. Either way the gradient matches finite differences."""
import pytest

from tests.gradcheck import POLICIES, check_grad, rng
from transform import TransformError, adjoint_source, grad, thunk_stats

from . import inline_programs as p


def vec(n=4, name="v"):
    return rng(name).normal(size=n)


CASES = {
    "rk4": (p.rk4, lambda: [vec(3), vec(9).reshape(3, 3)], (0, 1)),
    "lstm": (p.lstm, lambda: [vec(30).reshape(6, 5) * 0.5, [vec(3, f"x{k}") for k in range(4)],
                              vec(2, "h"), vec(2, "c")], (0, 2, 3)),
    "lstm_two_layers": (p.lstm_two_layers, lambda: [vec(30).reshape(6, 5) * 0.5,
                                                    vec(24, "W2").reshape(6, 4) * 0.5,
                                                    [vec(3, f"x{k}") for k in range(3)],
                                                    vec(2, "h"), vec(2, "c")], (0, 1, 3, 4)),
    "crosswise": (p.crosswise, lambda: [vec(), vec(name="w")], (0, 1)),
    "shadowing": (p.shadowing, lambda: [vec(), 0.4], (0, 1)),
    "reads_tape": (p.reads_tape, lambda: [vec()], 0),
    "with_branch": (p.with_branch, lambda: [vec()], 0),
    "from_elsewhere": (p.from_elsewhere, lambda: [vec(), vec(name="p")], (0, 1)),
    "kept_lambda": (p.uses_a_kept_lambda, lambda: [vec()], 0),
    "one_local_twice": (p.one_local_twice, lambda: [vec() * 0.3], 0),
    "mutual": (p.mutually_recursive, lambda: [vec()], 0),
}
INLINED = {"rk4": ["rhs"], "crosswise": ["swapped"], "reads_tape": ["taped"],
           "lstm": ["cell"], "lstm_two_layers": ["cell"],      # a tuple returned
           "one_local_twice": ["plus_product"], "mutual": ["sine_of"]}
CALLED = {"shadowing": "gained", "with_branch": "branchy", "from_elsewhere": "rhs",
          "mutual": "halve_or_recurse"}      # an if-expression


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("case", sorted(CASES))
def test_gradients_match_finite_differences(case, policy):
    fn, args, wrt = CASES[case]
    check_grad(fn, args(), wrt=wrt, policy=policy)


@pytest.mark.parametrize("case", sorted(INLINED))
def test_a_small_helper_in_a_loop_is_inlined(case):
    fn, _, wrt = CASES[case]
    source = adjoint_source(fn, wrt=wrt)
    for helper in INLINED[case]:
        assert f"{helper}_rrule" not in source


@pytest.mark.parametrize("case", sorted(CALLED))
def test_a_helper_that_may_not_be_inlined_is_called_as_its_rule(case):
    fn, _, wrt = CASES[case]
    assert f"{CALLED[case]}_rrule" in adjoint_source(fn, wrt=wrt)


def test_a_helper_writing_into_an_array_is_checked_on_its_own():
    """Not inlined (the caller's write checks ran before inlining): compiled on its own,
    its write is refused at its own line."""
    with pytest.raises(TransformError) as info:
        adjoint_source(p.copying)
    assert info.value.line == p.writes_local.__code__.co_firstlineno + 2


def test_a_helper_outside_loops_is_called_as_its_rule():
    assert "rhs_rrule" in adjoint_source(p.once, wrt=(0, 1))


def test_an_inlined_loop_makes_no_thunks_and_no_rule_calls():
    fn, args, wrt = CASES["rk4"]
    values = args()
    df = grad(fn, wrt=wrt)
    df(*values)
    with thunk_stats() as stats:
        df(*values)
    assert stats.created == 0
