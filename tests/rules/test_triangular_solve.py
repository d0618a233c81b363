"""np.linalg.solve's rule takes a triangular solve where the matrix is triangular and SciPy
is installed (issue 19's GP loss solves with Cholesky factors): same cotangents as the
general solve, against central differences, for lower, upper, diagonal and dense
matrices, and with SciPy's solver hidden."""
import sys

import numpy as np
import pytest

from runtime import registry
from runtime.rules import decompositions_helpers as dh
from tests.fd import assert_close, numerical_grad
from tests.gradcheck import POLICIES
from tests.rules.checks import check_float32, check_rule, rand
from transform import grad

pytest.importorskip("scipy.linalg")

N = 10                                   # above the size where the triangle is checked
DENSE = rand(N, N, seed=1) + N * np.eye(N)
MATRICES = {"lower": np.tril(DENSE), "upper": np.triu(DENSE),
            "diagonal": np.diag(np.diag(DENSE)), "dense": DENSE,
            "lower-but-a-corner": np.tril(DENSE) + np.eye(N, k=N - 1) * 0.5,
            "small-lower": np.tril(DENSE)[:4, :4]}


@pytest.mark.parametrize("rhs", ["vector", "matrix"])
@pytest.mark.parametrize("name", MATRICES)
def test_solve_cotangents(name, rhs):
    a = MATRICES[name]
    b = rand(len(a), seed=2) if rhs == "vector" else rand(len(a), 3, seed=3)
    check_rule(np.linalg.solve, [a, b])


@pytest.mark.parametrize("name", ["lower", "upper"])
def test_which_solver_is_used(name, monkeypatch):
    calls = []
    real = dh._scipy_solve_triangular()
    monkeypatch.setattr(dh, "_SOLVE_TRIANGULAR", lambda *a, **k: calls.append(k) or real(*a, **k))
    a = MATRICES[name]
    dh.solve_transposed(a, rand(N, seed=4))
    assert calls == [{"trans": 1, "lower": name == "lower", "check_finite": False}]
    calls.clear()
    dh.solve_transposed(DENSE, rand(N, seed=4))
    assert calls == []


def test_float32():
    check_float32(np.linalg.solve, [MATRICES["lower"].astype(np.float32),
                                    rand(N, seed=5).astype(np.float32)])


def gp_loss(K, y):
    L = np.linalg.cholesky(K)
    alpha = np.linalg.solve(L.T, np.linalg.solve(L, y))
    return 0.5 * y @ alpha + np.sum(np.log(np.diag(L)))


@pytest.mark.parametrize("scipy_present", [True, False])
@pytest.mark.parametrize("policy", POLICIES)
def test_gp_loss_with_and_without_scipy(policy, scipy_present, monkeypatch):
    if not scipy_present:
        monkeypatch.setattr(dh, "_SOLVE_TRIANGULAR", None)
        registry._load_pending()      # session 31: every SciPy path hidden, its rules loaded
        monkeypatch.setitem(sys.modules, "scipy.linalg", None)
    K, y = DENSE @ DENSE.T, rand(N, seed=6)
    sym = lambda K, y: gp_loss((K + K.T) / 2, y)     # noqa: E731 (symmetric directions)
    got = grad(gp_loss, policy=policy)(K, y)
    assert_close((got + got.T) / 2, numerical_grad(sym, (K, y), 0), rtol=1e-5)
    assert_close(grad(gp_loss, wrt=1, policy=policy)(K, y), numerical_grad(gp_loss, (K, y), 1),
                 rtol=1e-5)
