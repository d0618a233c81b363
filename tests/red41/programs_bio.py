"""red41: pharmacology, population genetics, ecology and neuroscience as people write
them: one- and two-compartment pharmacokinetics (closed form, RK4, expm), Hill
dose-response, Michaelis-Menten elimination, Wright-Fisher selection, Leslie matrices,
Jukes-Cantor phylogenetics, an HMM's forward algorithm, FitzHugh-Nagumo, Hardy-Weinberg."""
import math
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
from scipy.integrate import trapezoid
from scipy.linalg import expm
from scipy.special import expit, gammaln, logsumexp


class PKParams(NamedTuple):
    ka: float
    ke: float
    V: float


def bateman(p, t, dose=100.0):
    """oral one-compartment concentration (Bateman function)."""
    return dose * p.ka / (p.V * (p.ka - p.ke)) * (np.exp(-p.ke * t) - np.exp(-p.ka * t))


def pk_oral_fit(log_theta, t, c_obs):
    """sum of squared log-residuals of the Bateman curve; parameters on the log scale."""
    ka, ke, V = np.exp(log_theta)
    p = PKParams(ka, ke, V)
    pred = bateman(p, t)
    resid = np.log(pred) - np.log(c_obs)
    return 0.5 * np.sum(resid ** 2)


def _pk_rhs(y, ka, ke):
    gut, central = y
    return np.array([-ka * gut, ka * gut - ke * central])


def pk_rk4_multidose(log_k, c_obs):
    """RK4 on the gut/central ODE with a dose added every 6 steps (in place on a copy)."""
    ka, ke = np.exp(log_k)
    y = np.array([0.0, 0.0])
    h = 0.5
    preds = []
    for step in range(len(c_obs)):
        if step % 6 == 0:
            y = y.copy()
            y[0] += 10.0
        k1 = _pk_rhs(y, ka, ke)
        k2 = _pk_rhs(y + h / 2 * k1, ka, ke)
        k3 = _pk_rhs(y + h / 2 * k2, ka, ke)
        k4 = _pk_rhs(y + h * k3, ka, ke)
        y = y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        preds.append(y[1])
    preds = np.array(preds)
    return np.sum((preds - c_obs) ** 2)


def pk_two_compartment_expm(log_k, times):
    """linear two-compartment model solved by the matrix exponential at each time."""
    k10, k12, k21 = np.exp(log_k)
    A = np.array([[-(k10 + k12), k21], [k12, -k21]])
    x0 = np.array([5.0, 0.0])
    auc = 0.0
    for t in times:
        x = expm(A * t) @ x0
        auc += x[0]
    return auc


@dataclass
class Hill:
    emax: float
    ec50: float
    n: float

    def response(self, c):
        cn = c ** self.n
        return self.emax * cn / (self.ec50 ** self.n + cn)


def hill_dose_response(theta, conc, effect):
    """Hill curve from a dataclass; a Gaussian likelihood with a fitted log-sigma."""
    model = Hill(theta[0], np.exp(theta[1]), np.exp(theta[2]))
    mu = model.response(conc)
    sigma = np.exp(theta[3])
    r = (effect - mu) / sigma
    return np.sum(0.5 * r ** 2 + np.log(sigma))


def michaelis_menten_euler(vmax, c0=4.0, km=1.5, dt=0.05, steps=40):
    """nonlinear elimination dC/dt = -vmax C/(km + C), explicit Euler, the AUC."""
    c = c0
    auc = 0.0
    for _ in range(steps):
        rate = vmax * c / (km + c)
        auc += c * dt
        c = c - dt * rate
    return auc


def wright_fisher_selection(s, p0=0.05, h=0.5, tol=1e-10):
    """deterministic allele frequency under selection, a while loop until p stops
    moving or 60 generations; returns the mean frequency over the path."""
    p = p0
    total = 0.0
    gens = 0
    while gens < 60:
        q = 1 - p
        wbar = p * p * (1 + s) + 2 * p * q * (1 + h * s) + q * q
        p_new = (p * p * (1 + s) + p * q * (1 + h * s)) / wbar
        total += p_new
        gens += 1
        if abs(p_new - p) < tol:
            break
        p = p_new
    return total / gens


def mutation_selection_balance(log_mu, s=0.1, generations=30):
    """allele frequencies for three alleles with symmetric mutation and selection
    against the third, as a vector updated by a matrix each generation."""
    mu = np.exp(log_mu)
    M = np.full((3, 3), mu / 2)
    np.fill_diagonal(M, 1 - mu)
    w = np.array([1.0, 1.0, 1.0 - s])
    p = np.ones(3) / 3
    for _ in range(generations):
        p = M @ p
        p = p * w / np.dot(p, w)
    return p[2]


def leslie_growth_rate(log_f, survival):
    """dominant eigenvalue of a Leslie matrix by power iteration with a convergence
    check (early return of the Rayleigh-like ratio)."""
    n = len(survival) + 1
    L = np.zeros((n, n))
    L[0, :] = np.exp(log_f)
    for i, s in enumerate(survival):
        L[i + 1, i] = s
    v = np.ones(n) / n
    lam = 1.0
    for it in range(200):
        w = L @ v
        lam_new = w.sum() / v.sum()
        v = w / w.sum()
        if abs(lam_new - lam) < 1e-12:
            return lam_new
        lam = lam_new
    return lam


def leslie_eig(log_f, survival):
    """the same growth rate from np.linalg.eigvals' largest real part."""
    n = len(survival) + 1
    L = np.diag(survival, -1)
    L = L + np.vstack([np.exp(log_f)[None, :], np.zeros((n - 1, n))])
    lam = np.linalg.eigvals(L)
    return np.max(lam.real)


def _jc_transition(t):
    """Jukes-Cantor P(t): same/different probabilities."""
    e = np.exp(-4.0 / 3.0 * t)
    return 0.25 + 0.75 * e, 0.25 - 0.25 * e


def jukes_cantor_pair(log_t, same, diff):
    """log likelihood of an aligned pair with `same` matches and `diff` mismatches."""
    p_same, p_diff = _jc_transition(np.exp(log_t))
    return -(same * np.log(0.25 * p_same) + diff * np.log(0.25 * p_diff))


def jukes_cantor_three_taxa(log_t, patterns, counts):
    """star tree of three taxa: sum over the root state by hand, site patterns weighted."""
    t = np.exp(log_t)
    P = []
    for ti in t:
        ps, pd = _jc_transition(ti)
        P.append(np.full((4, 4), pd) + np.eye(4) * (ps - pd))
    ll = 0.0
    for pat, n in zip(patterns, counts):
        site = 0.0
        for root in range(4):
            site = site + 0.25 * P[0][root, pat[0]] * P[1][root, pat[1]] * P[2][root, pat[2]]
        ll += n * np.log(site)
    return -ll


def hmm_forward_loglik(theta, obs):
    """two-state HMM with Gaussian emissions, forward algorithm in log space."""
    logit_stay = theta[:2]
    mus = theta[2:4]
    stay = expit(logit_stay)
    logA = np.log(np.array([[stay[0], 1 - stay[0]], [1 - stay[1], stay[1]]]))
    def log_emit(y):
        return -0.5 * (y - mus) ** 2 - 0.5 * np.log(2 * np.pi)
    alpha = np.log(np.array([0.5, 0.5])) + log_emit(obs[0])
    for y in obs[1:]:
        alpha = logsumexp(alpha[:, None] + logA, axis=0) + log_emit(y)
    return -logsumexp(alpha)


def hmm_scaled_forward(theta, obs):
    """the same HMM with the scaled (probability-space) recursion and a list of scales."""
    stay = expit(theta[:2])
    A = np.array([[stay[0], 1 - stay[0]], [1 - stay[1], stay[1]]])
    mus = theta[2:4]
    emit = lambda y: np.exp(-0.5 * (y - mus) ** 2) / math.sqrt(2 * math.pi)
    a = 0.5 * emit(obs[0])
    scales = [a.sum()]
    a = a / scales[-1]
    for y in obs[1:]:
        a = (a @ A) * emit(y)
        c = a.sum()
        scales.append(c)
        a /= c
    return -sum(np.log(c) for c in scales)


def fitzhugh_nagumo(params, v0=-1.0, w0=1.0, dt=0.1, steps=60):
    """FitzHugh-Nagumo by Euler; the mean of v**2 along the trajectory."""
    a, b, eps = params
    v, w = v0, w0
    acc = []
    for k in range(steps):
        dv = v - v ** 3 / 3 - w + 0.5
        dw = eps * (v + a - b * w)
        v, w = v + dt * dv, w + dt * dw
        acc.append(v * v)
    return np.mean(acc)


def hardy_weinberg_inbreeding(theta, counts):
    """genotype counts (AA, Aa, aa) under Hardy-Weinberg with inbreeding F: a
    multinomial log likelihood with gammaln's constant."""
    p = expit(theta[0])
    F = 0.5 * np.tanh(theta[1])
    q = 1 - p
    probs = np.array([p * p + F * p * q, 2 * p * q * (1 - F), q * q + F * p * q])
    n = counts.sum()
    return -(gammaln(n + 1) - np.sum(gammaln(counts + 1)) + np.sum(counts * np.log(probs)))


def logistic_growth_fit(theta, t, y):
    """logistic growth N(t) = K / (1 + (K/N0 - 1) e^{-rt}), the mean squared error."""
    r, K, N0 = np.exp(theta)
    pred = K / (1 + (K / N0 - 1) * np.exp(-r * t))
    return np.mean((pred - y) ** 2)


def sir_age_structured(log_beta, contact, N=np.array([0.6, 0.4])):
    """two age groups, a contact matrix and Euler steps; the final attack rate."""
    beta = np.exp(log_beta)
    S = N - 0.01
    I = np.full(2, 0.01)
    gamma = 0.3
    for _ in range(50):
        force = beta * contact @ (I / N)
        new = S * force * 0.2
        S = S - new
        I = I + new - gamma * I * 0.2
    return np.sum(N - S)


def pk_auc_scipy(log_theta, t, dose=100.0):
    """AUC and Cmax-like soft maximum of the Bateman curve, the AUC by
    scipy.integrate.trapezoid (an NCA-style summary)."""
    ka, ke, V = np.exp(log_theta)
    c = bateman(PKParams(ka, ke, V), t, dose)
    auc = trapezoid(c, t)
    cmax = logsumexp(5 * c) / 5
    return auc + cmax


def life_expectancy(s):
    """survivorship l_x as the running product of age-specific survival (the last age
    class survives with probability 0), life expectancy and a squared penalty."""
    l = np.cumprod(s)
    return np.sum(l) + 0.5 * np.sum(l ** 2)
