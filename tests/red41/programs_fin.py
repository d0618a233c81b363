"""red41: finance as people write it, beyond red40's: Greeks by pathwise Monte Carlo
with a seeded generator inside the function, Merton jump diffusion, SABR's implied vol
(Hagan), Nelson-Siegel curve fitting, CIR bond prices, CDS hazard pricing, Bachelier,
a binomial tree, Kelly growth, spline-interpolated discount curves with np.interp."""
import math
from typing import NamedTuple

import numpy as np
from scipy.stats import norm


def mc_call_seeded(params, n=2000):
    """European call by Monte Carlo with np.random.default_rng(42) inside (common
    random numbers): grad is the pathwise delta/vega."""
    S0, sigma = params
    r, T, K = 0.01, 1.0, 1.0
    rng = np.random.default_rng(42)
    z = rng.standard_normal(n)
    ST = S0 * np.exp((r - 0.5 * sigma ** 2) * T + sigma * np.sqrt(T) * z)
    payoff = np.maximum(ST - K, 0.0)
    return np.exp(-r * T) * payoff.mean()


def mc_digital_smoothed(sigma, n=500):
    """digital option with the indicator smoothed by a sigmoid, legacy np.random.seed."""
    np.random.seed(7)
    z = np.random.randn(n)
    ST = np.exp(-0.5 * sigma ** 2 + sigma * z)
    return np.mean(1.0 / (1.0 + np.exp(-(ST - 1.0) / 0.05)))


class MertonParams(NamedTuple):
    sigma: float
    lam: float
    mu_j: float
    sig_j: float


def merton_jump_mc(theta, z, nj, zj):
    """Merton jump diffusion terminal value with fixed normal draws and jump counts."""
    p = MertonParams(*theta)
    k = np.exp(p.mu_j + 0.5 * p.sig_j ** 2) - 1
    drift = -0.5 * p.sigma ** 2 - p.lam * k
    logS = drift + p.sigma * z + nj * p.mu_j + np.sqrt(nj) * p.sig_j * zj
    return np.mean(np.log1p(np.exp(10 * (np.exp(logS) - 1.0))) / 10)


def sabr_vol(F, K, T, alpha, beta, rho, nu):
    """Hagan's SABR lognormal implied volatility (K != F)."""
    FK = F * K
    logFK = np.log(F / K)
    z = nu / alpha * FK ** ((1 - beta) / 2) * logFK
    x = np.log((np.sqrt(1 - 2 * rho * z + z * z) + z - rho) / (1 - rho))
    den = FK ** ((1 - beta) / 2) * (1 + (1 - beta) ** 2 / 24 * logFK ** 2)
    corr = 1 + ((1 - beta) ** 2 / 24 * alpha ** 2 / FK ** (1 - beta)
                + rho * beta * nu * alpha / (4 * FK ** ((1 - beta) / 2))
                + (2 - 3 * rho ** 2) / 24 * nu ** 2) * T
    return alpha / den * z / x * corr


def sabr_calibration(theta, strikes, market):
    alpha, rho, nu = math.exp(theta[0]), math.tanh(theta[1]), math.exp(theta[2])
    vols = np.array([sabr_vol(1.0, K, 1.0, alpha, 0.5, rho, nu) for K in strikes])
    return np.sum((vols - market) ** 2)


def nelson_siegel_fit(theta, mats, yields):
    """Nelson-Siegel yields with a log decay; squared error."""
    b0, b1, b2, log_tau = theta
    tau = np.exp(log_tau)
    x = mats / tau
    f1 = (1 - np.exp(-x)) / x
    f2 = f1 - np.exp(-x)
    return np.sum((b0 + b1 * f1 + b2 * f2 - yields) ** 2)


def cir_bond_price(params, r0=0.03, T=5.0):
    """CIR zero-coupon bond price, closed form."""
    kappa, theta, sigma = params
    gamma = np.sqrt(kappa ** 2 + 2 * sigma ** 2)
    e = np.exp(gamma * T) - 1
    den = (gamma + kappa) * e + 2 * gamma
    A = (2 * gamma * np.exp((kappa + gamma) * T / 2) / den) ** (2 * kappa * theta / sigma ** 2)
    B = 2 * e / den
    return A * np.exp(-B * r0)


def cds_par_spread(log_hazard, times, recovery=0.4, r=0.02):
    """piecewise-constant hazards, survival by cumulative sums, premium and protection
    legs on a quarterly grid; returns the par spread."""
    h = np.exp(log_hazard)
    dt = np.diff(np.concatenate([[0.0], times]))
    surv = np.exp(-np.cumsum(h * dt))
    disc = np.exp(-r * times)
    prev = np.concatenate([[1.0], surv[:-1]])
    protection = (1 - recovery) * np.sum(disc * (prev - surv))
    premium = np.sum(disc * dt * 0.5 * (surv + prev))
    return protection / premium


def bachelier_portfolio(sigmas, strikes, F=100.0, T=0.5):
    """normal-model call prices by norm.pdf and norm.cdf, summed."""
    total = 0.0
    for s, K in zip(sigmas, strikes):
        sd = s * np.sqrt(T)
        d = (F - K) / sd
        total += (F - K) * norm.cdf(d) + sd * norm.pdf(d)
    return total


def binomial_tree_call(sigma, S0=1.0, K=1.0, r=0.02, T=1.0, n=20):
    """Cox-Ross-Rubinstein tree, backward induction over a shrinking array (European,
    with a smooth payoff so the price is smooth in sigma)."""
    dt = T / n
    u = np.exp(sigma * np.sqrt(dt))
    d = 1 / u
    p = (np.exp(r * dt) - d) / (u - d)
    j = np.arange(n + 1)
    ST = S0 * u ** j * d ** (n - j)
    V = np.log1p(np.exp(20 * (ST - K))) / 20
    for step in range(n):
        V = np.exp(-r * dt) * (p * V[1:] + (1 - p) * V[:-1])
    return V[0]


def kelly_growth(f, returns, probs):
    """expected log growth of fractions f over discrete outcomes (f = fraction per bet)."""
    wealth = 1.0 + returns @ f
    return -np.sum(probs * np.log(wealth))


def discount_curve_interp(zero_rates, pillars, cash_times, cash):
    """zero rates linearly interpolated with np.interp at cash-flow times; PV."""
    z = np.interp(cash_times, pillars, zero_rates)
    return np.sum(cash * np.exp(-z * cash_times))


def swap_annuity_loop(fwd, tau=0.5, K=0.03):
    """a payer swap from forward rates: discount factors by a running product."""
    df = 1.0
    pv = 0.0
    for F in fwd:
        df = df / (1 + tau * F)
        pv += df * tau * (F - K)
    return pv


def vol_surface_arbitrage(theta, ks):
    """SVI total variance; a butterfly-arbitrage penalty via the density condition g(k)."""
    a, b, rho, m, s = theta
    w = lambda k: a + b * (rho * (k - m) + np.sqrt((k - m) ** 2 + s ** 2))
    eps = 1e-3
    wk = w(ks)
    w1 = (w(ks + eps) - w(ks - eps)) / (2 * eps)
    w2 = (w(ks + eps) - 2 * wk + w(ks - eps)) / eps ** 2
    g = (1 - ks * w1 / (2 * wk)) ** 2 - w1 ** 2 / 4 * (1 / wk + 0.25) + w2 / 2
    return np.sum(np.log1p(np.exp(-50 * g)) / 50) + np.sum(wk)
