"""The driver's parts as behaviour: the owned sum of the invariants' cotangents, a
pullback given no cotangent, the snapshot count checked when the rule runs."""
import numpy as np
import pytest

from runtime.checkpoint_rule import _owned_sum, run_checkpointed_rule
from tests.checkpoint import cases
from transform import checkpointed, grad


def test_owned_sum_copies_first_then_adds_in_place():
    c = np.ones(3)
    total = _owned_sum(None, c)
    assert total is not c and np.array_equal(total, c)
    again = _owned_sum(total, np.full(3, 2.0))
    assert again is total and np.array_equal(total, [3.0, 3.0, 3.0]) and c[0] == 1.0
    assert _owned_sum(total, None) is total and _owned_sum(2.0, None) == 2.0


def test_owned_sum_never_writes_what_does_not_fit():
    small = np.zeros(3, dtype=np.float32)
    wide = _owned_sum(small, np.ones(3))            # float64 into float32: a new array
    assert wide is not small and wide.dtype == np.float64 and small[0] == 0.0
    total = np.zeros(1)
    grown = _owned_sum(total, np.ones(3))           # (1,) + (3,): broadcast, new array
    assert grown is not total and grown.shape == (3,) and total[0] == 0.0
    assert _owned_sum([1.0, 2.0], [3.0, 4.0]) == [4.0, 6.0]


def test_pullback_of_no_cotangent():
    grad(cases.scalar_ck, 0)(0.3, 0.9, 2, 2)        # compiles and registers the step
    from runtime.checkpoint import STEPS
    key = next(k for k in STEPS if "scalar_ck" in k)
    out, pullback = run_checkpointed_rule(key, (0.3, 0), (0.9,), range(3), 2)
    assert pullback(None) == (None,) * 6
    _, cots, invariants, items, _, _ = pullback((1.0, 0.0))
    assert items is None and len(cots) == 2 and invariants[0] != 0.0


@pytest.mark.parametrize("bad", [0, 2.5, True])
def test_snapshots_checked_by_the_rule(bad):
    with pytest.raises(ValueError, match="snapshots"):
        grad(cases.scalar_ck, 0)(0.3, 0.9, 4, bad)


def _unrelated(x, n, s):
    count = 0.0
    for t in checkpointed(range(n), snapshots=s):
        count = count + 1.0
    return x * 2.0 + 0.0 * count


def test_snapshots_checked_when_nothing_is_differentiated_through_the_loop():
    assert grad(_unrelated, 0)(0.3, 3, 2) == 2.0
    with pytest.raises(ValueError, match="snapshots"):
        grad(_unrelated, 0)(0.3, 3, 0)


def test_step_keys_are_unique_per_globals_and_deterministic():
    from runtime.checkpoint import STEPS, register_step

    def made(space):
        exec("def step(x):\n    return (x,)\n", space)
        return space["step"]
    spaces = [{}, {}, {}]
    steps = [made(s) for s in spaces]
    keys = [register_step("test.step:1:abc", s) for s in steps]
    assert keys == ["test.step:1:abc", "test.step:1:abc#2", "test.step:1:abc#3"]
    again = made(spaces[1])                        # recompiled in the same namespace
    assert register_step("test.step:1:abc", again) == "test.step:1:abc#2"
    assert STEPS["test.step:1:abc#2"] is again and STEPS["test.step:1:abc"] is steps[0]


def test_loop_body_rule_needs_the_compiler(monkeypatch):
    from runtime import callees
    monkeypatch.setattr(callees, "_BODY_RULE", [])
    with pytest.raises(TypeError, match="needs thunkgrad's compiler"):
        callees.loop_body_rule(cases.scalar, (0,))
