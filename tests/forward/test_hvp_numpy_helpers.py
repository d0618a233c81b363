"""hvp through NumPy rules whose JVP terms call helpers reverse mode now takes (session
35, rules2): np.power's base term (power_base_vjp's rule, runtime/rules/second_order.py),
np.polyval's and np.vander's slopes, a running maximum's tangent, tensorinv's and
tensorsolve's (differentiated from their source: transform/generated_calls.py BY_SOURCE). H v against central differences
of grad (float64), every argument moved together."""
import numpy as np
import pytest

from tests.fd import assert_close
from tests.gradcheck import rng
from transform import TransformError, grad, hvp


def powers(x, y):                   # base and exponent both differentiated, broadcast
    return np.sum(np.power(1.5 + x * x, y)) + np.sum(np.power(x[:, None] + 2.0, 1.5 * y))


def polynomial(p, x):               # polyval_slope in p and x
    return np.sum(np.polyval(p, x) ** 2) + np.sum(np.polyval(p[::-1], np.sin(x)))


def vandermonde(p, x):              # vander_slopes
    return np.sum(np.vander(x, 4) ** 2 * p)


def running_extremes(p, x):         # running_max_jvp
    return np.sum(np.maximum.accumulate(x * x - x) ** 2) + \
        np.sum(np.minimum.accumulate(np.sin(x) + p[0]) * x)


def tensors(p, x):                  # tensorinv_jvp, tensorsolve_jvp
    m = np.outer(x, p) + np.diag(3.0 + p)
    k = np.reshape(np.kron(m, np.eye(2) + 0.1 * x[0]), (4, 2, 8))
    return np.sum(np.linalg.tensorinv(k, ind=2) ** 2) + \
        np.sum(np.linalg.tensorsolve(np.reshape(k, (8, 4, 2)), np.arange(8.0) * p[1]) ** 2)


@pytest.mark.parametrize("fn", [powers, polynomial, vandermonde, running_extremes, tensors],
                         ids=lambda f: f.__name__)
def test_hvp_matches_differences_of_grad(fn):
    r = rng("hvp numpy helpers", fn.__name__)
    args = (r.normal(size=4) * 0.5, r.normal(size=4) * 0.5 + 0.2)
    v = (r.normal(size=4), r.normal(size=4))
    got = hvp(fn, args, v, wrt=(0, 1))
    gradient, eps = grad(fn, (0, 1)), 1e-6
    up = gradient(*(a + eps * d for a, d in zip(args, v)))
    down = gradient(*(a - eps * d for a, d in zip(args, v)))
    for k in range(2):
        assert_close(got[k], (up[k] - down[k]) / (2 * eps), rtol=1e-5, atol=1e-6)


def negative_base(x, y):
    return np.sum(np.power(x, y))


def test_a_power_of_a_negative_base_in_its_exponent_is_refused():
    with pytest.raises(TransformError, match="needs x > 0"):
        hvp(negative_base, (np.array([-1.5, 2.0]), np.array([2.0, 3.0])),
            (np.ones(2), np.ones(2)), wrt=(0, 1))


def complete_qr(x):
    q, r = np.linalg.qr(np.outer(x, x) + np.eye(2), mode="complete")
    return np.sum(r ** 2)


def test_a_refusal_inside_a_helper_taken_from_its_source_is_at_the_users_line():
    """qr_jvp (differentiated from its source under hvp) refuses mode='complete' when it
    runs: the TransformError names the user's call, not the helper's line."""
    with pytest.raises(TransformError, match="mode='reduced'") as info:
        hvp(complete_qr, (np.array([0.3, 0.5]),), (np.ones(2),))
    assert info.value.filename == __file__
    assert "np.linalg.qr(" in info.value.source_line
