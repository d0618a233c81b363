"""Round 29 red team, statistical models: a GP marginal likelihood, logistic and Poisson
regression, an HMM forward pass in log space, a Gaussian mixture, reparameterised VI, a
Bayesian NN written with lambdas, an AR(2) likelihood, a Kalman filter and softmax
regression with a Student-t prior."""
import numpy as np
import scipy.stats
from scipy.special import gammaln, logsumexp

from .case import case


def _make(*parts):
    """Inputs maker from callables rng -> value (ints and dicts allowed)."""
    def make(rng):
        return [p(rng) for p in parts]
    return make


def _normal(*shape, scale=1.0):
    return lambda rng: scale * rng.standard_normal(shape)


def _ints(high, *shape):
    return lambda rng: rng.integers(0, high, size=shape)


def _params(**shapes):
    return lambda rng: {k: 0.5 * rng.standard_normal(s) for k, s in shapes.items()}


# ---- statistics -----------------------------------------------------------------------------

def _rbf(X1, X2, ell, sf2):
    d2 = np.sum((X1[:, None, :] - X2[None, :, :]) ** 2, axis=-1)
    return sf2 * np.exp(-0.5 * d2 / ell ** 2)


@case(_make(lambda rng: np.array([0.0, -0.5, -1.0]), _normal(6, 2), _normal(6)), wrt=0)
def gp_log_marginal_likelihood(log_hyp, X, y):
    ell, sf2, sn2 = np.exp(log_hyp)
    K = _rbf(X, X, ell, sf2) + sn2 * np.eye(len(X))
    L = np.linalg.cholesky(K)
    alpha = np.linalg.solve(L.T, np.linalg.solve(L, y))
    return 0.5 * y @ alpha + np.sum(np.log(np.diag(L))) + 0.5 * len(y) * np.log(2 * np.pi)


@case(_make(_normal(3), _normal(10, 3), _ints(2, 10)), wrt=0)
def logistic_regression_logaddexp(w, X, y, lam=0.1):
    z = X @ w
    nll = np.sum(np.logaddexp(0.0, z) - y * z)
    return nll + lam / 2 * w @ w


@case(_make(_normal(3, scale=0.3), _normal(8, 3), _ints(5, 8)), wrt=0)
def poisson_regression_gammaln(beta, X, counts):
    eta = X @ beta
    ll = counts * eta - np.exp(eta) - gammaln(counts + 1)
    return -ll.sum()


def _log_softmax(a, axis=-1):
    return a - logsumexp(a, axis=axis, keepdims=True)


@case(_make(_normal(2), _normal(2, 2), _normal(2, 3), _ints(3, 6)), wrt=(0, 1, 2))
def hmm_forward_log_space(pi_logits, A_logits, B_logits, obs):
    log_pi = _log_softmax(pi_logits)
    log_A = _log_softmax(A_logits, axis=1)
    log_B = _log_softmax(B_logits, axis=1)
    alpha = log_pi + log_B[:, obs[0]]
    for t in range(1, len(obs)):
        alpha = logsumexp(alpha[:, None] + log_A, axis=0) + log_B[:, obs[t]]
    return -logsumexp(alpha)


@case(_make(_normal(3), _normal(3), _normal(3), _normal(12)), wrt=(0, 1, 2))
def gaussian_mixture_loglik(logits, means, log_sds, x):
    log_w = logits - logsumexp(logits)
    comp = scipy.stats.norm.logpdf(x[:, None], loc=means, scale=np.exp(log_sds))
    return -np.sum(logsumexp(comp + log_w, axis=1))


@case(_make(_normal(4), _normal(4), _normal(5, 4)), wrt=(0, 1))
def vi_reparameterised_elbo(mu, log_sigma, eps):
    sigma = np.exp(log_sigma)
    elbo = 0.0
    for e in eps:
        z = mu + sigma * e
        log_lik = -0.5 * np.sum((z - 1.0) ** 2)
        log_prior = np.sum(scipy.stats.norm.logpdf(z))
        elbo += log_lik + log_prior
    entropy = np.sum(log_sigma) + 0.5 * len(mu) * (1 + np.log(2 * np.pi))
    return -(elbo / len(eps) + entropy)


@case(_make(_params(W1=(1, 4), b1=(4,), W2=(4, 1)), _normal(5, 1), _normal(5)),
      wrt="theta")
def bayesian_nn_with_lambdas(theta, X, y):
    act = lambda z: np.tanh(z)  # noqa: E731
    predict = lambda t, x: (act(x @ t["W1"] + t["b1"]) @ t["W2"])[:, 0]  # noqa: E731
    log_prior = sum(-0.5 * np.sum(v ** 2) for v in theta.values())
    resid = y - predict(theta, X)
    log_lik = -0.5 * np.sum(resid ** 2) / 0.1 ** 2
    return -(log_lik + log_prior)


@case(_make(lambda rng: np.array([0.3, -0.2]), _normal(9, scale=0.5)), wrt=0)
def ar2_timeseries_likelihood(phi, x):
    resid = x[2:] - phi[0] * x[1:-1] - phi[1] * x[:-2]
    return 0.5 * np.sum(resid ** 2) + 0.5 * np.sum(np.diff(x) * phi.sum())


@case(_make(_normal(2), _normal(6, 2)), wrt=0)
def kalman_filter_loglik(q_r, ys):
    q, r = np.exp(q_r)
    F = np.array([[1.0, 1.0], [0.0, 1.0]])
    H = np.eye(2)
    m, P = np.zeros(2), np.eye(2)
    ll = 0.0
    for y in ys:
        m = F @ m
        P = F @ P @ F.T + q * np.eye(2)
        S = H @ P @ H.T + r * np.eye(2)
        K = P @ H.T @ np.linalg.inv(S)
        v = y - H @ m
        m = m + K @ v
        P = (np.eye(2) - K @ H) @ P
        ll += -0.5 * (v @ np.linalg.solve(S, v) + np.log(np.linalg.det(S)))
    return -ll


@case(_make(_normal(3, 4), _ints(3, 5), _normal(5, 4)), wrt=0)
def softmax_regression_with_student_t_prior(W, y, X):
    logits = X @ W.T
    nll = -np.sum(_log_softmax(logits)[np.arange(5), y])
    prior = -np.sum(scipy.stats.t.logpdf(W, df=3.0))
    return nll + prior
