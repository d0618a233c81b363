"""red39: library calls physics and statistics code leans on, to second order:
eigvalsh frequencies of a mass-weighted Hessian, scipy.linalg.expm propagators,
scipy.integrate.solve_ivp and odeint, lstsq Gauss-Newton, a reparameterised Monte
Carlo ELBO with a seeded generator inside, einsum with repeated labels, the nuclear
norm by svd."""
import numpy as np
from scipy.integrate import odeint, solve_ivp
from scipy.linalg import expm


def mode_frequencies(masses, K=np.array([[2.0, -1.0, 0.0], [-1.0, 2.0, -1.0],
                                          [0.0, -1.0, 1.5]])):
    """normal-mode frequencies: eigenvalues of M^-1/2 K M^-1/2, summed square roots."""
    s = 1.0 / np.sqrt(masses)
    D = K * s[:, None] * s[None, :]
    w2 = np.linalg.eigvalsh(D)
    return np.sum(np.sqrt(w2))


def markov_expm(rates, t=0.7):
    """a 3-state continuous-time Markov chain: rates into a generator, expm, the
    log probability of an observed transition path."""
    Q = np.zeros((3, 3))
    Q[0, 1], Q[1, 2], Q[2, 0] = rates[0], rates[1], rates[2]
    Q[1, 0] = 0.3
    Q = Q - np.diag(Q.sum(axis=1))
    P = expm(Q * t)
    return -(np.log(P[0, 1]) + np.log(P[1, 2]) + np.log(P[2, 2]))


def _decay_rhs(t, y, k):
    return -k * y + np.sin(t)


def ivp_decay(k):
    """solve_ivp with args and tight tolerances: the final value squared (a float k)."""
    sol = solve_ivp(_decay_rhs, (0.0, 1.0), np.array([1.0]), args=(k,), rtol=1e-10,
                    atol=1e-12)
    return sol.y[0, -1] ** 2


def ivp_decay_t(k):
    """the same with the output time given (t_eval), as the rule needs."""
    sol = solve_ivp(_decay_rhs, (0.0, 1.0), np.array([1.0]), args=(k,), t_eval=[1.0],
                    rtol=1e-10, atol=1e-12)
    return sol.y[0, -1] ** 2


def _lv(t, y, a, b):
    return np.array([a * y[0] - 0.5 * y[0] * y[1], -b * y[1] + 0.3 * y[0] * y[1]])


def ivp_trajectory(y0):
    """a Lotka-Volterra trajectory at fixed times (a vector output)."""
    sol = solve_ivp(_lv, (0.0, 1.0), y0, t_eval=np.linspace(0.2, 1.0, 3), args=(1.1, 0.7),
                    rtol=1e-10, atol=1e-12)
    return sol.y.reshape(-1)


def _osc(y, t, w):
    return np.array([y[1], -w * w * y[0]])


def odeint_osc(y0):
    ts = np.linspace(0.0, 1.0, 5)
    ys = odeint(_osc, y0, ts, args=(1.3,), rtol=1e-10, atol=1e-12)
    return np.sum(ys[:, 0] ** 2)


def lstsq_gauss_newton(p, t, y):
    """one Gauss-Newton step by np.linalg.lstsq, the residual norm after it."""
    r = p[0] * np.exp(-p[1] * t) - y
    J = np.stack([np.exp(-p[1] * t), -p[0] * t * np.exp(-p[1] * t)], axis=1)
    step = np.linalg.lstsq(J, r, rcond=None)[0]
    q = p - step
    r2 = q[0] * np.exp(-q[1] * t) - y
    return r2 @ r2


def mc_elbo(phi, x):
    """a reparameterised ELBO with a seeded generator created inside (common
    variance-reduction habit: common random numbers)."""
    rng = np.random.default_rng(0)
    eps = rng.standard_normal(size=(16, 2))
    mu, log_s = phi[:2], phi[2:]
    z = mu + np.exp(log_s) * eps
    loglik = -0.5 * np.sum((x[None, :, :] - z[:, None, :]) ** 2, axis=(1, 2))
    logprior = -0.5 * np.sum(z ** 2, axis=1)
    return -(np.mean(loglik + logprior) + np.sum(log_s))


def einsum_trace_energy(w):
    """einsum with a repeated label (a trace) and a bilinear form."""
    A = w.reshape(3, 3)
    S = A @ A.T
    return np.einsum("ii->", S @ S) + np.einsum("i,ij,j->", w[:3], S, w[3:6])


def nuclear_norm(w):
    """the nuclear norm (sum of singular values) of a 3x2 matrix, distinct values."""
    s = np.linalg.svd(w.reshape(3, 2), compute_uv=False)
    return np.sum(s) + 0.1 * np.sum(s ** 2)
