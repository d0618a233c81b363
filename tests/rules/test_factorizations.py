"""np.linalg.qr, lstsq, eig and eigvals against central differences, and their refusals."""
import numpy as np
import pytest

import runtime
from tests.fd import assert_close, numerical_grad
from tests.gradcheck import POLICIES, check_grad
from tests.rules.checks import case, check_float32, check_rule, rand

A43, A33, A35 = rand(4, 3), rand(3, 3, seed=1) + 2 * np.eye(3), rand(3, 5, seed=2)
B4, B42 = rand(4, seed=3), rand(4, 2, seed=4)


def real_spectrum(n, seed=0, batch=()):
    """P diag(d) P^-1 with distinct real d: a non-symmetric matrix with a real spectrum."""
    P = rand(*batch, n, n, seed=seed) + 2 * np.eye(n)
    d = np.arange(1.0, n + 1) * 1.5 - 3
    return P * d[..., None, :] @ np.linalg.inv(P)


QR = [case(np.linalg.qr, A43), case(np.linalg.qr, A33), case(np.linalg.qr, A35),
      case(np.linalg.qr, rand(2, 4, 3, seed=5)), case(np.linalg.qr, rand(2, 3, 4, seed=6)),
      case(np.linalg.qr, A43, mode="reduced")]
LSTSQ = [case(np.linalg.lstsq, A43, B4), case(np.linalg.lstsq, A43, B42),
         case(np.linalg.lstsq, A33, B42[:3]), case(np.linalg.lstsq, A35, B4[:3]),
         case(np.linalg.lstsq, A35, B42[:3], rcond=None)]
EIG = [case(np.linalg.eig, real_spectrum(3)), case(np.linalg.eig, real_spectrum(4, seed=1)),
       case(np.linalg.eig, real_spectrum(3, seed=2, batch=(2,))),
       case(np.linalg.eigvals, real_spectrum(3)), case(np.linalg.eigvals, real_spectrum(3, batch=(2,)))]
CASES = QR + LSTSQ + EIG


@pytest.mark.parametrize("fn, args, kwargs", QR + LSTSQ + EIG[3:])
def test_matches_finite_differences(fn, args, kwargs):
    check_rule(fn, args, kwargs)


@pytest.mark.parametrize("fn, args, kwargs", EIG[:3])
def test_eig_against_a_sign_free_loss(fn, args, kwargs):
    """LAPACK picks each eigenvector's sign, and may flip it under a tiny perturbation,
    so the check pairs the eigenvectors through V ** 2: <gw, w> + <C, V ** 2>."""
    a, = args
    w, V = np.linalg.eig(a)
    gw, C = rand(*w.shape, seed=7), rand(*V.shape, seed=8)
    _, pullback = runtime.lookup(np.linalg.eig).rrule(a)
    got = runtime.unthunk(pullback((gw, 2 * C * V))[0])

    def loss(m):
        w, V = np.linalg.eig(m)
        return np.sum(gw * w) + np.sum(C * V ** 2)
    assert_close(got, numerical_grad(loss, [a], 0), rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("fn, args, kwargs", CASES)
def test_float32_stays_float32(fn, args, kwargs):
    check_float32(fn, args, kwargs)


@pytest.mark.parametrize("part", [0, 1])
def test_qr_one_output_at_a_time(part):
    out = np.linalg.qr(A43)
    G = [None, None]
    G[part] = rand(*out[part].shape, seed=9)
    check_rule(np.linalg.qr, [A43], G=tuple(G))


@pytest.mark.parametrize("part", [0, 1, 3])
def test_lstsq_one_output_at_a_time(part):
    out = np.linalg.lstsq(A43, B42)
    G = [None] * 4
    G[part] = rand(*out[part].shape, seed=9)
    check_rule(np.linalg.lstsq, [A43, B42], G=tuple(G))


def _cotangent(fn, args, kwargs, g):
    _, pullback = runtime.lookup(fn).rrule(*args, **kwargs)
    return runtime.unthunk(pullback(g)[0])


@pytest.mark.parametrize("mode", ["complete", "r", "raw"])
def test_qr_other_modes_are_refused(mode):
    out = np.linalg.qr(A43, mode=mode)
    with pytest.raises(NotImplementedError, match="reduced"):
        _cotangent(np.linalg.qr, [A43], {"mode": mode}, out)


def test_lstsq_rank_deficient_is_refused():
    a = np.outer(rand(4), rand(3, seed=1))
    out = np.linalg.lstsq(a, B4)
    with pytest.raises(NotImplementedError, match="full-rank"):
        _cotangent(np.linalg.lstsq, [a, B4], {}, (np.ones(3), None, None, None))


@pytest.mark.parametrize("fn", [np.linalg.eig, np.linalg.eigvals])
def test_complex_spectrum_is_refused(fn):
    rotation = np.array([[0.0, -1.0], [1.0, 0.0]]) + 0.1 * np.eye(2)
    out = fn(rotation)
    g = (np.ones(2), None) if fn is np.linalg.eig else np.ones(2)
    with pytest.raises(NotImplementedError, match="complex eigenvalues"):
        _cotangent(fn, [rotation], {}, g)


def factor_loss(a, b):
    q, r = np.linalg.qr(a)
    x, res, _, _ = np.linalg.lstsq(a, b)
    w = np.linalg.eigvals(a[:3] @ a[:3].T + np.diag(np.arange(3.0)))
    u, V = np.linalg.eig(0.2 * a[:3] + np.diag(np.arange(3.0) * 2))
    return np.sum(q[:, 0] ** 2 * b) + np.sum(r ** 2) + np.sum(x ** 3) + np.sum(res) + \
        np.sum(w) + np.sum(u * b[:3]) + np.sum(V[0] ** 2)


@pytest.mark.parametrize("policy", POLICIES)
def test_factor_program(policy):
    check_grad(factor_loss, [A43, B4], policy=policy)
