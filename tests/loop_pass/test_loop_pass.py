"""The loop pass: materialise inside loops, defer in straight-line code; policies agree."""
import numpy as np
import pytest

from tests.fd import assert_close, numerical_grad
from tests.gradcheck import POLICIES
from transform import adjoint_source, grad, thunk_stats

from . import seeds


def seed_inputs(n):
    return np.ones((10, 10), dtype=np.float32), list(np.ones((n, 10), dtype=np.float32))


def expected_seed(n):
    out = np.zeros((10, 10), dtype=np.float32)
    out[0] = n
    return out


@pytest.mark.parametrize("n", [512, 100_000])
def test_seed_mwe_exact_under_loop(n):
    W, xs = seed_inputs(n)
    dW = grad(seeds.seed)(W, xs)
    assert dW.dtype == np.float32
    np.testing.assert_array_equal(dW, expected_seed(n))


def max_depth(n, policy="loop"):
    W, xs = seed_inputs(n)
    with thunk_stats() as stats:
        grad(seeds.seed, policy=policy)(W, xs)
    return stats.max_depth


def test_max_depth_does_not_grow_with_iterations():
    assert max_depth(64) == max_depth(1024)
    assert max_depth(1024) <= 3


def test_nested_depth_grows_with_iterations():
    assert max_depth(16, "nested") < max_depth(64, "nested")


def test_nested_at_100k_raises_explanatory_error():
    W, xs = seed_inputs(100_000)
    with pytest.raises(RecursionError, match="policy='loop'") as info:
        grad(seeds.seed, policy="nested")(W, xs)
    assert "nested" in str(info.value)


@pytest.mark.parametrize("policy", POLICIES)
def test_policies_agree_on_seed(policy):
    W, xs = seed_inputs(100)
    np.testing.assert_array_equal(grad(seeds.seed, policy=policy)(W, xs), expected_seed(100))


def reset_calls():
    seeds.CALLS.update(x=0, y=0)


@pytest.mark.parametrize("policy", POLICIES)
def test_unneeded_cotangent_never_computed_straight_line(policy):
    reset_calls()
    assert grad(seeds.straight, policy=policy)(2.0, 3.0) == pytest.approx(9.0)
    assert seeds.CALLS == {"x": 2, "y": 0}


@pytest.mark.parametrize("policy", ["loop", "flat", "nested"])
def test_unneeded_cotangent_never_computed_across_call(policy):
    reset_calls()
    assert grad(seeds.across_call, policy=policy)(2.0, 3.0) == pytest.approx(10.0)
    assert seeds.CALLS == {"x": 1, "y": 0}


def test_eager_skips_what_no_call_site_differentiates():
    """The callee is compiled for the arguments that carry a derivative where it is
    called (x, not y), so even eager never computes y's cotangent."""
    reset_calls()
    assert grad(seeds.across_call, policy="eager")(2.0, 3.0) == pytest.approx(10.0)
    assert seeds.CALLS == {"x": 1, "y": 0}


@pytest.mark.parametrize("policy", POLICIES)
def test_unneeded_cotangent_never_computed_in_loop(policy):
    reset_calls()
    assert grad(seeds.in_loop, policy=policy)(2.0, 3.0, 5) == pytest.approx(15.0)
    assert seeds.CALLS == {"x": 5, "y": 0}


def test_callee_offers_more_than_needed_no_W_work():
    rng = np.random.default_rng(0)
    W, b, x = rng.normal(size=(3, 10)), rng.normal(size=3), rng.normal(size=10)
    with thunk_stats() as stats:
        db = grad(seeds.bias_only, wrt="b")(W, b, x)
    np.testing.assert_allclose(db, 1 - np.tanh(W @ x + b) ** 2)
    # layer() is compiled for b alone (what the call site differentiates): the W and x
    # cotangents are not even built, so every thunk made is one that is needed
    assert stats.forced == stats.created


def test_loop_body_has_no_thunks_for_builtins():
    text = adjoint_source(seeds.bias_loop, wrt="b")
    body = text.split("for i in reversed(")[1]
    assert "Thunk(" not in body
    assert "accumulate_unbroadcast(db, " in body      # in place into an owned buffer


def test_straight_line_rule_defers_and_combines_flat():
    text = adjoint_source(seeds.bias_only, wrt=("W", "b"), as_rule=True)
    assert "Thunk(lambda" in text


def test_thunks_capture_values_not_loop_variables():
    text = adjoint_source(seeds.seed, policy="flat")
    assert "Thunk(lambda " in text and "=dt" in text      # defaults capture by value


def test_explain_marks_unthunks_and_deferred():
    text = adjoint_source(seeds.bias_loop, wrt="b", explain=True)
    assert "# unthunk" in text and "loop at line" in text
    rule_text = adjoint_source(seeds.bias_only, wrt="b", explain=True, as_rule=True)
    assert "# deferred" in rule_text


def test_loop_buffer_is_owned_never_user_array():
    W = np.ones((3, 10)); b = np.ones(3); x = np.ones(10)
    for arr in (W, b, x):
        arr.setflags(write=False)
    db = grad(seeds.bias_loop, wrt="b")(W, b, x, 7)
    assert db.flags.writeable and db is not b
    expected = numerical_grad(seeds.bias_loop, (W, b, x, 7), 1)
    assert_close(db, expected)
    db += 100.0                     # the caller may write into it: nothing else changes
    assert_close(grad(seeds.bias_loop, wrt="b")(W, b, x, 7), expected)
