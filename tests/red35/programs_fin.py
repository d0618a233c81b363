"""Session 35 red team (red35) programs, batch 5: finance and reinforcement learning
(Black-Scholes greeks, Monte Carlo with a fixed seed, discounted returns, drawdowns), and
index arithmetic users write by hand (searchsorted interpolation, int() lookups)."""
import math

import numpy as np

from tests.optional_scipy import scipy_module

special = scipy_module("special")
stats = scipy_module("stats")


def black_scholes(S, K=1.0, T=0.5, r=0.02, sigma=0.3):
    d1 = (np.log(S / K) + (r + 0.5 * sigma ** 2) * T) / (sigma * np.sqrt(T))
    d2 = d1 - sigma * np.sqrt(T)
    return S * special.ndtr(d1) - K * np.exp(-r * T) * special.ndtr(d2)


def black_scholes_erf(S, sigma):
    d1 = (math.log(S) + 0.5 * sigma ** 2 * 0.5) / (sigma * math.sqrt(0.5))
    d2 = d1 - sigma * math.sqrt(0.5)
    cdf = lambda z: 0.5 * (1 + math.erf(z / math.sqrt(2)))  # noqa: E731
    return S * cdf(d1) - cdf(d2)


def bs_stats(S, sigma=0.25):
    d1 = (np.log(S) + 0.5 * sigma ** 2) / sigma
    return S * stats.norm.cdf(d1) - stats.norm.cdf(d1 - sigma)


def mc_call(S0, sigma=0.2, n=64):
    rng = np.random.default_rng(42)
    z = rng.standard_normal(n)
    ST = S0 * np.exp(-0.5 * sigma ** 2 + sigma * z)
    payoff = np.maximum(ST - 1.0, 0.0)
    return payoff.mean()


def mc_smooth(params):
    rng = np.random.default_rng(7)
    z = rng.standard_normal((32, 2))
    mu, log_s = params[:2], params[2]
    x = mu + np.exp(log_s) * z
    return np.mean(special.softplus(x[:, 0] - x[:, 1])) if hasattr(special, "softplus") \
        else np.mean(np.logaddexp(0.0, x[:, 0] - x[:, 1]))


def discounted_return(gamma, rewards=(1.0, 0.5, -0.2, 0.8, 0.3)):
    G = 0.0
    for r in reversed(rewards):
        G = r + gamma * G
    return G


def returns_vector(gamma, rewards):
    out = []
    G = 0.0
    for r in rewards[::-1]:
        G = r + gamma * G
        out.append(G)
    return np.array(out[::-1])


def drawdown(x):
    wealth = np.cumprod(1 + x)
    peak = np.maximum.accumulate(wealth)
    return np.max((peak - wealth) / peak) + np.sum(x ** 2)


def portfolio_var(w, cov):
    w = w / np.sum(w)
    return w @ cov @ w - 0.5 * w @ np.diag(cov)


def sharpe(w, R):
    port = R @ w
    return -np.mean(port) / np.std(port)


def policy_gradient_loss(theta, states, actions, advantages):
    logits = states @ theta
    logp = logits - special.logsumexp(logits, axis=1, keepdims=True)
    chosen = logp[np.arange(len(actions)), actions]
    return -np.mean(chosen * advantages)


def hand_interp(x, xp, fp):
    i = np.clip(np.searchsorted(xp, x) - 1, 0, len(xp) - 2)
    t = (x - xp[i]) / (xp[i + 1] - xp[i])
    return fp[i] * (1 - t) + fp[i + 1] * t


def hand_interp_loss(fp, x):
    xp = np.linspace(0.0, 1.0, len(fp))
    return np.sum(hand_interp(x, xp, fp) ** 2)


def int_lookup(a):
    table = [0.5, 1.5, -0.3, 2.0]
    k = int(a * 2) % 4
    return table[k] * a ** 2 + a * round(a, 1)


def nonzero_gather(x):
    idx = np.nonzero(x > 0)[0]
    sel = np.where(x < 0)[0]
    return np.sum(x[idx] ** 2) + np.sum(np.exp(x[sel]))


def floor_mod(x):
    return np.sum(np.floor(x * 3) * x + (x % 0.7) ** 2 + x // 0.5 * x)


def implied_vol(price):
    sigma = 0.3
    for _ in range(30):
        f = black_scholes_erf(1.0, sigma) - price
        vega = (black_scholes_erf(1.0, sigma + 1e-5) - black_scholes_erf(1.0, sigma - 1e-5)) / 2e-5
        sigma = sigma - f / vega
        if abs(f) < 1e-13:
            break
    return sigma
