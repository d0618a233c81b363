"""Mutation survivors of runtime/rules/scipy_integrate.py pinned by behaviour: the
backward solve shared by the y0 and args templates belongs to one (cotangent, result)
pair, so a pullback called again with another cotangent, or a second forward call given
the same cotangent object, solves again."""
import numpy as np
import pytest

integrate = pytest.importorskip("scipy.integrate")

from tests.fd import assert_close, numerical_grad, numerical_vjp  # noqa: E402
from transform import grad, vjp  # noqa: E402

T = np.linspace(0.0, 1.0, 4)


def decay(y, t, k):
    return -k * y


def trajectory(y0, k):
    return integrate.odeint(decay, y0, T, args=(k,), rtol=1e-12, atol=1e-12)


def _expected(y0, k, G):
    """<G, ys> in y0 and k by the closed form ys[t] = y0 exp(-k t)."""
    e = np.exp(-k * T)[:, None]
    return np.sum(G * e, axis=0), np.sum(G * y0 * -T[:, None] * e)


def test_one_pullback_called_with_two_cotangents():
    y0, k = np.array([1.0, -2.0]), 0.8
    _, pullback = vjp(trajectory, y0, k, wrt=(0, 1))
    for seed in (1, 2):
        G = np.random.default_rng(seed).standard_normal((len(T), 2))
        g_y0, g_k = pullback(G)
        want_y0, want_k = _expected(y0, k, G)
        assert_close(g_y0, want_y0, rtol=1e-8)
        assert_close(g_k, want_k, rtol=1e-8)


def test_two_forward_calls_given_the_same_cotangent_object():
    G = np.random.default_rng(3).standard_normal((len(T), 2))
    for y0, k in ((np.array([1.0, -2.0]), 0.8), (np.array([0.5, 3.0]), 1.3)):
        _, pullback = vjp(trajectory, y0, k, wrt=(0, 1))
        g_y0, g_k = pullback(G)
        assert_close(g_y0, numerical_vjp(trajectory, [y0, k], 0, G), rtol=1e-6, atol=1e-8)
        assert_close(g_k, _expected(y0, k, G)[1], rtol=1e-8)


def rhs(t, y, a, b):
    return -a * y + b


def _ivp_loss(t_eval, pack):
    def loss(y0, p):
        sol = integrate.solve_ivp(rhs, (0.0, 1.0), y0, t_eval=t_eval, args=pack(p),
                                  rtol=1e-11, atol=1e-11)
        return np.sum(sol.y ** 2)
    return loss


@pytest.mark.parametrize("t_eval", [[1.0], [0.5], [0.0, 1.0], [0.25, 0.5, 1.0]])
@pytest.mark.parametrize("pack", [tuple, list, np.asarray], ids=["tuple", "list", "array"])
def test_solve_ivp_output_times_and_args_kinds(t_eval, pack):
    """t_eval of one time (the end, or inside), starting at t_span[0] or after it; args as a
    tuple, a list or an array (solve_ivp unpacks any of them into fun's parameters; an
    array crashed the rule); gradients in y0 and args against finite differences."""
    loss = _ivp_loss(t_eval, pack)
    y0, p = np.array([1.0, -2.0]), np.array([0.7, 0.3])
    g_y0, g_p = grad(loss, wrt=(0, 1))(y0, pack(p))
    assert_close(g_y0, numerical_grad(loss, [y0, p], 0), rtol=1e-6, atol=1e-8)
    assert_close(np.asarray(g_p, dtype=float), numerical_grad(loss, [y0, p], 1), rtol=1e-6, atol=1e-8)
    assert isinstance(g_p, type(pack(p)))
