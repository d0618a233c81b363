"""Session 32 (fix2): a checkpointed loop's steps must give the same values when the
backward sweep runs them again. A helper naming a random generator among its globals is
refused at the call (compile time); any other step that gives another value when run
again (a generator reached through an object) is refused by the driver, which compares
the rerun step's carry with the forward sweep's bit for bit where the same code made
both. These gave silently wrong gradients before."""
import numpy as np
import pytest

from runtime.checkpoint import STEPS
from runtime.checkpoint_rule import Loop, _fingerprint
from tests.checkpoint import nondeterministic_cases as C
from tests.gradcheck import POLICIES, check_grad, rng
from transform import TransformError, grad


@pytest.mark.parametrize("name, line", [("helper_draws", 22), ("helper_of_helper_draws", 34)])
def test_a_helper_naming_a_generator_is_refused_at_the_call(name, line):
    with pytest.raises(TransformError, match="calls a helper that reads a random generator") \
            as info:
        grad(getattr(C, name))(np.array([0.3, -0.5]), 4, 2)
    assert f"nondeterministic_cases.py:{line}:21" in str(info.value)
    assert "noise[t]" in str(info.value)


@pytest.mark.parametrize("s", [1, 2, 3, 5])
def test_a_step_giving_another_value_when_run_again_is_refused(s):
    with pytest.raises(TypeError, match=r"nondeterministic_cases.py:\d+: a checkpointed "
                       "loop's step gave another value .* must be deterministic"):
        grad(C.method_draws)(np.array([0.3, -0.5]), 4, s)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("s", [1, 2, 5])
def test_deterministic_steps_pass_the_check(policy, s):
    check_grad(C.deterministic, [rng("fix2.det").normal(size=3), 5, s], wrt=0, policy=policy)


def _plain_loop(scale):
    grad(C.deterministic)(np.array([0.3, -0.5]), 4, 2)
    step = next(STEPS[k] for k in sorted(STEPS) if ".deterministic:" in k)
    assert step.thunkgrad_plain_advance
    loop = Loop(step, (), range(4), 2)
    out, held = loop.forward((np.array([0.3, -0.5]),))
    loop.call(out, 0, None)     # (the rule the backward sweep uses, from the true step)
    calls = []

    def rerun(x, t):
        calls.append(t)
        return (step(x, t)[0] * scale,)
    rerun.thunkgrad_plain_advance = True
    loop.step = rerun
    return loop, held, calls


def test_a_plain_step_is_run_once_more_at_the_loop_end_and_compared():
    loop, held, calls = _plain_loop(1.0 + 1e-15)
    with pytest.raises(TypeError, match="gave another value"):
        loop.backward((np.ones(2),), held)
    assert calls == [2, 3]                  # (2: a recomputation, 3: the check)
    loop, held, calls = _plain_loop(1.0)
    g = loop.backward((np.ones(2),), held)
    assert calls == [2, 3, 0] and np.shape(g[0]) == (2,)


def test_fingerprint_sees_bits_dtypes_shapes_and_containers():
    a = np.array([1.0, 2.0])
    assert _fingerprint((a, [3, {"k": 1.5}])) == _fingerprint((a.copy(), [3, {"k": 1.5}]))
    for other in [(a.astype(np.float32), [3, {"k": 1.5}]), (a.reshape(2, 1), [3, {"k": 1.5}]),
                  (a, [3, {"k": 1.5000000000000002}]), (a, [4, {"k": 1.5}]),
                  (np.array([1.0, -2.0]), [3, {"k": 1.5}])]:
        assert _fingerprint((a, [3, {"k": 1.5}])) != _fingerprint(other)
    assert _fingerprint(("text", None)) == _fingerprint(())
