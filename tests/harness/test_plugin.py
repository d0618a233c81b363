"""The pytest plugin, as a user meets it: a fresh project whose tests use the `gradcheck`
fixture and markers, run by `python -m pytest` in a subprocess (the plugin loads through
the installed `pytest11` entry point, not through this test suite)."""
import os
import subprocess
import sys
import textwrap

GOOD = '''
import numpy as np
import pytest


def loss(W, b, x):
    h = np.tanh(W @ x + b)
    return np.sum(h ** 2)


def layer(W, x):
    return np.tanh(W @ x)


def rnn(W, x):
    h = x
    for _ in range(3):
        h = np.tanh(W @ h + x)
    return np.sum(h)


RNG = np.random.default_rng(0)


def test_loss(gradcheck):
    gradcheck(loss, RNG.normal(size=(3, 2)), RNG.normal(size=3), RNG.normal(size=2))


@pytest.mark.gradcheck_tolerance(rtol=1e-3, atol=1e-4)
def test_float32_layer(gradcheck):
    gradcheck(layer, RNG.normal(size=(3, 3)).astype(np.float32),
              RNG.normal(size=3).astype(np.float32))


@pytest.mark.all_policies
def test_rnn(gradcheck, thunkgrad_policy):
    grads = gradcheck(rnn, RNG.normal(size=(3, 3)) * 0.5, RNG.normal(size=3))
    assert set(grads) == {"W", "x"}


@pytest.mark.all_policies("loop", "flat")
def test_some_policies(thunkgrad_policy):
    assert thunkgrad_policy in ("loop", "flat")


@pytest.mark.all_policies("eager", "nested")
def test_policies_through_gradcheck_alone(gradcheck):
    gradcheck(layer, RNG.normal(size=(2, 2)), RNG.normal(size=2))


def test_policy_is_none_without_marker(thunkgrad_policy):
    assert thunkgrad_policy is None
'''

WRONG = '''
import numpy as np
import transform


def softplus(x):
    return np.log1p(np.exp(x))


@transform.rrule(softplus)
def _softplus_rule(x):
    def pullback(g):
        return (transform.unthunk(g) * np.exp(x),)     # wrong: should be sigmoid(x)
    return softplus(x), pullback


def objective(weights, scale):
    return np.sum(softplus(weights)) * scale


def test_objective(gradcheck):
    gradcheck(objective, np.array([0.5, -1.0, 2.0]), 1.5)
'''


def run_pytest(tmp_path, name, source):
    (tmp_path / name).write_text(textwrap.dedent(source))
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PYTEST_", "PYTHONPATH"))}
    result = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider",
                             "-rA", name], cwd=tmp_path, env=env, capture_output=True,
                            text=True, timeout=300)
    return result.returncode, result.stdout + result.stderr


def test_fixture_and_markers_in_a_fresh_project(tmp_path):
    code, output = run_pytest(tmp_path, "test_user_gradients.py", GOOD)
    assert code == 0, output
    assert "11 passed" in output
    for policy in ("loop", "eager", "flat", "nested"):
        assert f"test_rnn[{policy}]" in output
    assert "test_policies_through_gradcheck_alone[nested]" in output


OWN_POLICY = '''
import sys

import numpy as np
import pytest


def test_plugin_imports_nothing_until_used():
    assert "transform.api" not in sys.modules and "runtime" not in sys.modules


@pytest.fixture
def policy():
    return "the project's own"


def test_own_policy_fixture_is_kept(policy, gradcheck):
    assert policy == "the project's own"
    gradcheck(np.tanh, np.array([0.3, -0.2]))
'''


def test_plugin_is_lazy_and_leaves_policy_to_the_project(tmp_path):
    code, output = run_pytest(tmp_path, "test_own_policy.py", OWN_POLICY)
    assert code == 0, output
    assert "2 passed" in output


def test_wrong_custom_rule_fails_with_a_report(tmp_path):
    code, output = run_pytest(tmp_path, "test_wrong_rule.py", WRONG)
    assert code == 1, output
    assert "1 failed" in output
    assert "check_grads(objective) failed" in output
    assert "argument 'weights'" in output and "worst element weights[" in output
    assert "finite difference" in output and "relative error" in output
    assert "argument 'scale'" not in output       # its gradient is right
