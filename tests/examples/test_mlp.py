"""examples/mlp.py: a two-layer MLP with dict parameters, a dense() helper and a
stable softmax cross-entropy, trained by plain gradient descent through
grad(loss, wrt="params"). The loss falls by at least 90 percent in 200 steps,
and the gradient agrees with central finite differences along random directions."""
import importlib.util
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tests.gradcheck import POLICIES

from tests.fd import numerical_grad
from transform import grad

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "mlp.py"


@pytest.fixture(scope="module")
def mlp():
    spec = importlib.util.spec_from_file_location("thunkgrad_example_mlp", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_short_run_falls_substantially(mlp):
    first, last = mlp.main(steps=60, verbose=False)
    assert first > 0.9                       # about log(3) at the start
    assert last < 0.2 * first, (first, last)


def test_full_run_falls_by_90_percent(mlp):
    first, last = mlp.main(steps=200, verbose=False)     # speed: benchmarks/, not here
    assert (first - last) / first >= 0.90, (first, last)


def test_gradient_has_the_parameters_structure(mlp):
    X, labels = mlp.make_blobs()
    params = mlp.init_params()
    g = mlp.loss_grad(params, X, labels)
    assert type(g) is dict and list(g) == list(params)
    for name in params:
        assert isinstance(g[name], np.ndarray)
        assert g[name].shape == params[name].shape and g[name].dtype == params[name].dtype


def _direction_derivative(loss, params, direction, args):
    """d/dt loss(params + t * direction) at t = 0 by central differences (tests/fd.py)."""
    def along(t):
        return loss({k: params[k] + t * direction[k] for k in params}, *args)
    return numerical_grad(along, [0.0], 0, eps=1e-5)


@pytest.mark.parametrize("policy", POLICIES)
def test_gradient_matches_finite_differences_along_random_directions(mlp, policy):
    X, labels = mlp.make_blobs()
    params = mlp.init_params()
    # a few steps in, so the hidden units and the softmax are away from their start
    params, _ = mlp.train(params, X, labels, steps=5, verbose=False)
    g = grad(mlp.loss, wrt="params", policy=policy)(params, X, labels)
    rng = np.random.default_rng(42)
    for _ in range(3):
        d = {k: rng.standard_normal(v.shape) for k, v in params.items()}
        expected = _direction_derivative(mlp.loss, params, d, (X, labels))
        got = sum(float(np.sum(g[k] * d[k])) for k in params)
        assert got == pytest.approx(expected, rel=1e-6, abs=1e-9)


def test_gradient_matches_finite_differences_per_element(mlp):
    """A handful of single entries, one per parameter array."""
    X, labels = mlp.make_blobs(points=30)
    params = mlp.init_params(hidden=6)
    g = mlp.loss_grad(params, X, labels)
    for name in params:
        k = np.unravel_index(np.argmax(np.abs(g[name])), params[name].shape) \
            if np.any(g[name]) else (0,) * params[name].ndim

        def entry(v, name=name, k=k):
            p = {n: a.copy() for n, a in params.items()}
            p[name][k] = v
            return mlp.loss(p, X, labels)
        expected = numerical_grad(entry, [float(params[name][k])], 0)
        assert g[name][k] == pytest.approx(expected, rel=1e-6, abs=1e-9)


def test_softmax_is_stable_for_large_logits(mlp):
    """Subtracting the row maximum keeps huge logits finite, and so is the gradient."""
    X, labels = mlp.make_blobs(points=30)
    params = mlp.init_params(hidden=6)
    params["W2"] = params["W2"] * 1e4
    value = mlp.loss(params, X, labels)
    g = mlp.loss_grad(params, X, labels)
    assert np.isfinite(value)
    assert all(np.all(np.isfinite(v)) for v in g.values())


def test_script_runs_and_prints_progress():
    done = subprocess.run([sys.executable, str(EXAMPLE)], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    steps = [ln for ln in done.stdout.splitlines() if ln.strip().startswith("step")]
    assert len(steps) == 11                  # every 20 steps from 0, and step 200
    assert "Loss fell from" in done.stdout and "percent" in done.stdout
