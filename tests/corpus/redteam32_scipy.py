"""Session 32 red team (fix), the programs calling SciPy (registered when it imports):
logistic regression through a helper returning a tuple, with a progress print and its
l2 default left out; a Gaussian mixture with log_softmax, norm.logpdf and logsumexp of
a stacked list; Poisson regression with gammaln; odeint given a lambda whose parameters
shadow the differentiated r and K (refused before session 32). The rest passed."""
import numpy as np
import scipy.integrate
import scipy.linalg
import scipy.special
import scipy.stats

from .case import case, floats, given, mixed, positive


def _logits_and_probs(w, b, X):
    z = X @ w + b
    p = scipy.special.expit(z)
    return z, p


@case(mixed(floats((3,), ()), floats((12, 3)),
            given(np.array([1.0, 0, 0, 1, 1, 0, 1, 0, 0, 1, 1, 1]))), wrt=(0, 1))
def logistic_with_helper(w, b, X, y, l2=1e-2, verbose=False):
    z, p = _logits_and_probs(w, b, X)
    nll = -np.mean(y * np.log(p + 1e-12) + (1 - y) * np.log(1 - p + 1e-12))
    if verbose:
        print("nll", nll)
    return nll + 0.5 * l2 * np.dot(w, w)


@case(mixed(given(np.array([-1.0, 1.0])), floats((2,), (2,), scale=0.2), floats((20,))),
      wrt=(0, 1, 2))
def mixture_nll(mu, log_sigma, logit_w, x):
    w = scipy.special.log_softmax(logit_w)
    comps = []
    for k in range(len(mu)):
        comps.append(w[k] + scipy.stats.norm.logpdf(x, mu[k], np.exp(log_sigma[k])))
    return -np.sum(scipy.special.logsumexp(np.stack(comps), axis=0))


@case(mixed(floats((3,), scale=0.3), floats((12, 3)),
            given(np.array([2.0, 1, 0, 3, 2, 2, 5, 1, 0, 2, 4, 1]))), wrt=0)
def poisson_regression(beta, X, counts):
    eta = X @ beta
    mu = np.exp(eta)
    return np.sum(mu - counts * eta + scipy.special.gammaln(counts + 1))


@case(positive((), (), low=0.8, high=2.0), wrt=(0, 1))
def logistic_growth_shadowed_lambda(r, K):
    t = np.linspace(0.0, 2.0, 5)         # the lambda's r and K are its own parameters
    sol = scipy.integrate.odeint(lambda y, t, r, K: r * y * (1 - y / K), 0.1, t, args=(r, K),
                                 rtol=1e-12, atol=1e-12)
    return np.sum(sol[:, 0] ** 2)


@case(mixed(floats((), (), scale=0.2), given(np.linspace(0.0, 2.0, 6)), floats((6,))),
      wrt=(0, 1))
def gp_cho_factor_nll(log_ell, log_sf, x, y):
    ell, sf2 = np.exp(log_ell), np.exp(2 * log_sf)
    d = x[:, None] - x[None, :]
    K = sf2 * np.exp(-0.5 * d ** 2 / ell ** 2) + 0.1 * np.eye(len(x))
    c, low = scipy.linalg.cho_factor(K)
    alpha = scipy.linalg.cho_solve((c, low), y)
    return 0.5 * y @ alpha + np.sum(np.log(np.diag(c)))
