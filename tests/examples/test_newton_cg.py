"""examples/newton_cg.py: Newton-CG with `hvp` converges on a logistic regression to the
minimiser a hand-written Newton iteration (explicit Hessian X^T diag(p(1-p)) X / n +
lam I, no thunkgrad) finds, quadratically, and its hvp agrees with differences of the
hand gradient."""
import importlib.util
from pathlib import Path

import numpy as np
import pytest

from tests.fd import assert_close

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "newton_cg.py"
LAM = 1e-3


@pytest.fixture(scope="module")
def ncg():
    spec = importlib.util.spec_from_file_location("thunkgrad_example_newton_cg", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _hand_gradient(w, X, y):
    p = 1.0 / (1.0 + np.exp(-X @ w))
    return X.T @ (p - y) / len(y) + LAM * w


def _hand_hessian(w, X):
    p = 1.0 / (1.0 + np.exp(-X @ w))
    return (X.T * (p * (1 - p))) @ X / len(X) + LAM * np.eye(X.shape[1])


def test_converges_to_the_hand_written_newton_minimiser(ncg):
    X, y = ncg.data(n=400, d=6, seed=3)
    w, norms = ncg.newton_cg(X, y, LAM, log=lambda line: None)
    w_hand = np.zeros(6)
    for _ in range(30):
        w_hand -= np.linalg.solve(_hand_hessian(w_hand, X), _hand_gradient(w_hand, X, y))
    assert_close(w, w_hand, rtol=1e-8, atol=1e-10)
    assert norms[-1] <= 1e-9 and len(norms) <= 10
    assert norms[-2] ** 2 * 100 > norms[-1]          # the last steps shrink quadratically


def test_hvp_matches_the_hand_hessian_and_differences(ncg):
    from transform import hvp
    X, y = ncg.data(n=300, d=5, seed=4)
    rng = np.random.default_rng(5)
    w, v = rng.normal(size=5) * 0.3, rng.normal(size=5)
    hv = hvp(ncg.nll, (w, X, y, LAM), (v,))
    eps = 1e-6
    fd = (_hand_gradient(w + eps * v, X, y) - _hand_gradient(w - eps * v, X, y)) / (2 * eps)
    assert_close(hv, _hand_hessian(w, X) @ v, rtol=1e-10, atol=1e-12)
    assert_close(hv, fd, rtol=1e-6, atol=1e-9)


def test_script_runs(ncg, capsys):
    ncg.main()
    assert "converged in" in capsys.readouterr().out
