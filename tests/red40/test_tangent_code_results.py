"""hvp by reverse over forward (and jacfwd of grad) of `gates.append(out["z"].mean())`:
in the tangent code only the tangents reach the result, so `t3 = t2.mean()`'s value is
unused there, and the check for a callee keeping a value (analysis/kept_values.py)
refused it although the user's code uses it. Forward mode's code is now exempt: its
primal statements are the user's, checked when forward mode compiled them."""
import numpy as np

from tests.fd import assert_close, numerical_grad
from transform import grad, hvp, jacfwd

X = np.array([0.3, -0.5, 1.2, 0.7])
V = np.array([1.0, -0.5, 0.25, 2.0])


def _step(h, p):
    z = np.tanh(p["W"] * h)
    return {"h": z * h, "z": z}


def gated(theta):
    p = {"W": theta[:2]}
    h = theta[2:]
    gates = []
    for _ in range(2):
        out = _step(h, p)
        h = out["h"]
        gates.append(out["z"].mean())
    return np.sum(h ** 2) + 0.1 * sum(gates)


def test_reverse_over_forward_against_differences_of_grad():
    g = grad(gated)
    assert_close(g(X), numerical_grad(gated, [X], 0), 1e-6, 1e-8, "grad")
    rows = np.array([numerical_grad(lambda x: g(x)[k], [X], 0) for k in range(len(X))])
    assert_close(hvp(gated, (X,), (V,), route="reverse_over_forward"), rows @ V,
                 1e-5, 1e-7, "hvp")
    assert_close(jacfwd(g)(X), rows, 1e-5, 1e-7, "jacfwd of grad")
