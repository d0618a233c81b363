"""transform.testing.check_grads: passes correct gradients, reports wrong ones readably."""
import re

import numpy as np
import pytest

from tests.gradcheck import rng

import transform
from transform import rrule, unthunk
from transform import testing
from transform.testing import check_grads


# ---- functions and rules under test (module level: the compiler reads their source) ---
def loss(W, b, x):
    h = np.tanh(W @ x + b)
    return np.sum(h ** 2) + 0.1 * np.sum(W * W)


def layer(W, x):
    return np.tanh(W @ x)


def scaled(x, n, *, power=2):
    return np.sum(x ** power) * n


def pair_product(xs):
    return np.sum(xs[0] * xs[1]) + xs[2] * xs[2]


def wrong_sin(x):
    return np.sin(x)


@rrule(wrong_sin)
def _wrong_sin_rule(x):
    def pullback(g):
        d = unthunk(g) * np.cos(x)
        d[2] += 1.0                       # wrong only at element 2
        return (d,)
    return np.sin(x), pullback


def wrong_energy(x, y):
    return np.sum(x * x) * y


@rrule(wrong_energy)
def _wrong_energy_rule(x, y):
    def pullback(g):
        dx = 2 * x * y * unthunk(g)
        dx[2] *= 1.5                      # wrong only at element 2
        return dx, np.sum(x * x) * unthunk(g)
    return np.sum(x * x) * y, pullback


def uses_wrong_sin(x):
    return np.sum(wrong_sin(x) * x)


def good_cube(x):
    return x ** 3


@rrule(good_cube)
def _good_cube_rule(x):
    return x ** 3, lambda g: (3 * x ** 2 * unthunk(g),)


def uses_good_cube(x, y):
    return np.sum(good_cube(x) * y)


def mutating_forward(x):
    return 2 * x


@rrule(mutating_forward)
def _mutating_forward_rule(x):
    x *= 1.0                              # writes into its input
    return 2 * x, lambda g: (2 * unthunk(g),)


def mutating_pullback(x):
    return 2 * x


@rrule(mutating_pullback)
def _mutating_pullback_rule(x):
    def pullback(g):
        x[...] = 0.0                      # writes into the primal input, late
        return (2 * unthunk(g),)
    return 2 * x, pullback


def appends_to_list(xs):
    return np.sum(xs[0]) * 2.0


@rrule(appends_to_list)
def _appends_rule(xs):
    xs.append(1.0)
    return np.sum(xs[0]) * 2.0, lambda g: ([np.full_like(xs[0], 2.0 * unthunk(g))],)


def wrong_primal(x):
    return np.sin(x)


@rrule(wrong_primal)
def _wrong_primal_rule(x):
    return np.sin(x) + 1.0, lambda g: (unthunk(g) * np.cos(x),)


def mutates_when_called(x):
    x *= 2.0
    return x


@rrule(mutates_when_called)
def _mutates_when_called_rule(x):
    return 2.0 * x, lambda g: (2.0 * unthunk(g),)


# ---- passing checks --------------------------------------------------------------------
def test_scalar_output_every_float_argument():
    gen = rng("test_scalar_output_every_float_argument")
    W, b, x = gen.normal(size=(3, 2)), gen.normal(size=3), gen.normal(size=2)
    grads = check_grads(loss, W, b, x)
    assert set(grads) == {"W", "b", "x"}
    assert grads["W"].shape == W.shape


def test_integer_arguments_and_keywords_are_not_differentiated():
    gen = rng("test_integer_arguments_and_keywords_are_not_differentiated")
    grads = check_grads(scaled, gen.normal(size=4), 3, power=3)
    assert set(grads) == {"x"}


def test_wrt_by_name_and_index():
    gen = rng("test_wrt_by_name_and_index")
    W, b, x = gen.normal(size=(3, 2)), gen.normal(size=3), gen.normal(size=2)
    assert set(check_grads(loss, W, b, x, wrt="b")) == {"b"}
    assert set(check_grads(loss, W, b, x, wrt=(0, "x"))) == {"W", "x"}


def test_wrt_an_integer_argument_is_a_type_error():
    gen = rng("test_wrt_an_integer_argument_is_a_type_error")
    with pytest.raises(TypeError, match="'n'"):
        check_grads(scaled, gen.normal(size=4), 3, wrt="n")


def test_non_scalar_output_uses_vjp():
    gen = rng("test_non_scalar_output_uses_vjp")
    check_grads(layer, gen.normal(size=(4, 3)), gen.normal(size=3))


def test_large_inputs_use_random_directions(monkeypatch):
    gen = rng("test_large_inputs_use_random_directions")
    calls = []
    original = testing._fd_leaf
    monkeypatch.setattr(testing, "_fd_leaf", lambda *a: calls.append(a[4].size) or original(*a))
    check_grads(layer, gen.normal(size=(20, 10)), gen.normal(size=10), directions=4)
    assert calls == [200, 10]


def test_python_floats_and_containers():
    gen = rng("test_python_floats_and_containers")
    check_grads(pair_product, [gen.normal(size=2), gen.normal(size=2), 0.7])


def test_float32_inputs_with_loose_tolerance():
    gen = rng("test_float32_inputs_with_loose_tolerance")
    W = gen.normal(size=(3, 3)).astype(np.float32)
    check_grads(layer, W, gen.normal(size=3).astype(np.float32), rtol=1e-3, atol=1e-4)


def test_every_policy():
    gen = rng("test_every_policy")
    check_grads(loss, gen.normal(size=(2, 2)), gen.normal(size=2), gen.normal(size=2),
                policies=("loop", "eager", "flat", "nested"))


def test_registered_numpy_rule():
    gen = rng("test_registered_numpy_rule")
    check_grads(np.sin, gen.normal(size=3))
    check_grads(np.tanh, 0.3)


def test_user_rule_directly_and_inside_compiled_code():
    gen = rng("test_user_rule_directly_and_inside_compiled_code")
    check_grads(good_cube, gen.normal(size=3))
    check_grads(uses_good_cube, gen.normal(size=3), gen.normal(size=3))


# ---- failures --------------------------------------------------------------------------
def test_wrong_rule_reports_argument_element_values_and_rule():
    x = np.array([0.1, -0.4, 0.8, 1.3])
    with pytest.raises(AssertionError) as info:
        check_grads(wrong_energy, x, 0.5)
    message = str(info.value)
    assert "argument 'x'" in message and "argument 'y'" not in message
    assert "worst element x[2]" in message
    compiled, fd = _values(message)
    assert compiled == pytest.approx(1.5 * 0.8, rel=1e-6)
    assert fd == pytest.approx(0.8, rel=1e-6)
    assert "relative error 0.333" in message
    assert "registered rule" in message and "wrong_energy" in message
    assert "policies 'loop', 'eager', 'flat'" in message


def test_wrong_rule_with_non_scalar_output():
    with pytest.raises(AssertionError, match=r"argument 'x': worst element x\[2\]"):
        check_grads(wrong_sin, np.array([0.1, -0.4, 0.8, 1.3]))


def test_wrong_rule_inside_compiled_function_names_generated_source():
    x = np.array([0.1, -0.4, 0.8, 1.3])
    with pytest.raises(AssertionError) as info:
        check_grads(uses_wrong_sin, x, policies=("loop", "flat"))
    message = str(info.value)
    assert "argument 'x'" in message and re.search(r"worst element x\[\d\]", message)
    assert "generated rule <thunkgrad" in message
    assert "policy=loop>, line" in message and "policy=flat>, line" in message
    assert "def uses_wrong_sin_rrule(x):" in message
    assert "adjoint_source(uses_wrong_sin" in message
    assert "test_check_grads.py:" in message          # where the function is defined


def test_wrong_rule_on_a_large_input_is_caught_along_directions():
    gen = rng("test_wrong_rule_on_a_large_input_is_caught_along_directions")
    x = gen.normal(size=100)
    with pytest.raises(AssertionError, match=r"argument 'x'.*random directions"):
        check_grads(wrong_sin, x)


def test_rule_mutating_its_input_in_the_forward_call():
    gen = rng("test_rule_mutating_its_input_in_the_forward_call")
    with pytest.raises(AssertionError, match="wrote into its input argument 'x'"):
        check_grads(mutating_forward, gen.normal(size=3))


def test_rule_mutating_its_input_in_the_pullback():
    gen = rng("test_rule_mutating_its_input_in_the_pullback")
    with pytest.raises(AssertionError, match="wrote into its input argument 'x'"):
        check_grads(mutating_pullback, gen.normal(size=3))


def test_rule_appending_to_a_list_argument():
    gen = rng("test_rule_appending_to_a_list_argument")
    with pytest.raises(AssertionError, match="wrote into its input argument 'xs'"):
        check_grads(appends_to_list, [gen.normal(size=3)])


def test_function_mutating_its_input_when_called():
    gen = rng("test_function_mutating_its_input_when_called")
    with pytest.raises(AssertionError, match="calling the function wrote into .* 'x'"):
        check_grads(mutates_when_called, gen.normal(size=3))


def test_caller_arrays_are_never_modified():
    gen = rng("test_caller_arrays_are_never_modified")
    x = gen.normal(size=3)
    saved = x.copy()
    with pytest.raises(AssertionError):
        check_grads(mutating_forward, x)
    np.testing.assert_array_equal(x, saved)
    assert x.flags.writeable


def test_wrong_primal_output_is_reported():
    gen = rng("test_wrong_primal_output_is_reported")
    with pytest.raises(AssertionError, match="output differs from calling wrong_primal "
                       r"directly: .*; policy 'loop'"):
        check_grads(wrong_primal, gen.normal(size=3), policies=("loop",))


def test_policies_that_disagree_are_reported(monkeypatch):
    gen = rng("test_policies_that_disagree_are_reported")
    original = testing._compiled_grads

    def skewed(target, args, kwargs, chosen, policy, cotangent):
        out, grads = original(target, args, kwargs, chosen, policy, cotangent)
        return out, tuple(g * 2 for g in grads) if policy == "flat" else grads
    monkeypatch.setattr(testing, "_compiled_grads", skewed)
    with pytest.raises(AssertionError) as info:
        check_grads(loss, gen.normal(size=(2, 2)), gen.normal(size=2), gen.normal(size=2))
    message = str(info.value)
    assert "policies 'loop' and 'flat' disagree" in message
    assert "policy 'flat'" in message and "policies 'loop', 'eager'" not in message


def test_errors_inside_generated_code_name_the_policy():
    gen = rng("test_errors_inside_generated_code_name_the_policy")
    def boom(g):
        raise RuntimeError("boom")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(testing.api, "vjp", lambda *a, **k: (np.zeros(3), boom))
        with pytest.raises(RuntimeError) as info:
            check_grads(layer, gen.normal(size=(3, 3)), gen.normal(size=3), policies=("eager",))
    assert any("policy 'eager'" in note for note in info.value.__notes__)


def test_exported_from_the_testing_module():
    assert transform.testing.check_grads is check_grads
    assert "check_grads" in testing.__all__


def _values(message):
    match = re.search(r"compiled (\S+), finite difference (\S+),", message)
    return float(match.group(1)), float(match.group(2))
