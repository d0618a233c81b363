"""red40: finance: Monte Carlo option prices with fixed draws (European, Asian, basket,
smoothed barrier, Heston with full truncation), Black-Scholes through scipy.stats with an
implied-volatility Newton loop, portfolio variance, Sharpe ratios, risk parity, CVaR,
bond duration, Vasicek discounting, EWMA volatility."""
from dataclasses import dataclass, field

import numpy as np
from scipy.stats import norm


def mc_european(params, z):
    """(S0, sigma) -> discounted mean payoff of a call; draws fixed."""
    S0, sigma = params
    r, T, K = 0.02, 1.0, 1.0
    ST = S0 * np.exp((r - 0.5 * sigma ** 2) * T + sigma * np.sqrt(T) * z)
    payoff = np.maximum(ST - K, 0.0)
    return np.exp(-r * T) * payoff.mean()


def mc_asian(sigma, Z, S0=1.0, K=1.0):
    """arithmetic Asian call: log-paths by np.cumsum over steps, sigma a float."""
    n = Z.shape[1]
    dt = 1.0 / n
    logS = np.log(S0) + np.cumsum((0.01 - 0.5 * sigma ** 2) * dt + sigma * np.sqrt(dt) * Z, axis=1)
    avg = np.exp(logS).mean(axis=1)
    return np.mean(np.maximum(avg - K, 0.0))


def mc_basket(vols, Z, corr):
    """a basket call: correlated draws through a Cholesky factor of the correlation."""
    L = np.linalg.cholesky(corr)
    W = Z @ L.T
    ST = np.exp(-0.5 * vols ** 2 + vols * W)
    basket = ST.mean(axis=1)
    return np.mean(np.maximum(basket - 0.95, 0.0))


def mc_barrier_smoothed(sigma, Z, barrier=1.3, width=0.05):
    """an up-and-out call with the knock-out smoothed by a sigmoid of the running max."""
    n = Z.shape[1]
    dt = 1.0 / n
    S = np.exp(np.cumsum(-0.5 * sigma ** 2 * dt + sigma * np.sqrt(dt) * Z, axis=1))
    smax = S.max(axis=1)
    alive = 1.0 / (1.0 + np.exp((smax - barrier) / width))
    return np.mean(alive * np.maximum(S[:, -1] - 1.0, 0.0))


@dataclass
class Heston:
    kappa: float
    theta: float
    xi: float
    rho: float = -0.5
    dt: float = 0.1


def heston_euler(p, Z1, Z2):
    """Heston by Euler with full truncation np.maximum(v, 0), paths updated in place on
    copies of a preallocated array."""
    m = Heston(p[0], p[1], p[2])
    npaths, nsteps = Z1.shape
    v = np.full(npaths, 0.04)
    logS = np.zeros(npaths)
    for t in range(nsteps):
        vp = np.maximum(v, 0.0)
        z2 = m.rho * Z1[:, t] + np.sqrt(1 - m.rho ** 2) * Z2[:, t]
        logS = logS - 0.5 * vp * m.dt + np.sqrt(vp * m.dt) * Z1[:, t]
        v = v + m.kappa * (m.theta - vp) * m.dt + m.xi * np.sqrt(vp * m.dt) * z2
    return np.mean(np.maximum(np.exp(logS) - 1.0, 0.0))


def bs_call(S, K, T, r, sigma):
    d1 = (np.log(S / K) + (r + 0.5 * sigma ** 2) * T) / (sigma * np.sqrt(T))
    d2 = d1 - sigma * np.sqrt(T)
    return S * norm.cdf(d1) - K * np.exp(-r * T) * norm.cdf(d2)


def bs_vega_portfolio(sigmas, strikes):
    """a book of calls priced by Black-Scholes (scipy.stats.norm.cdf), keyword calls."""
    prices = bs_call(S=1.0, K=strikes, T=0.5, r=0.01, sigma=sigmas)
    return np.sum(prices * np.array([1.0, -2.0, 1.0]))


def implied_vol(price, S=1.0, K=1.1, T=0.5, r=0.0):
    """implied volatility by Newton in a while loop with a break on tolerance."""
    sigma = 0.3
    it = 0
    while it < 50:
        d1 = (np.log(S / K) + (r + 0.5 * sigma ** 2) * T) / (sigma * np.sqrt(T))
        diff = bs_call(S, K, T, r, sigma) - price
        if abs(diff) < 1e-13:
            break
        sigma = sigma - diff / (S * norm.pdf(d1) * np.sqrt(T))
        it += 1
    return sigma


def portfolio_variance_softmax(logits, cov):
    w = np.exp(logits - logits.max())
    w /= w.sum()
    return w @ cov @ w


def mean_variance_utility(w, mu, cov, risk_aversion=3.0):
    return -(w @ mu) + 0.5 * risk_aversion * w @ cov @ w + 10.0 * (w.sum() - 1.0) ** 2


def sharpe_ratio(w, R):
    port = R @ w
    return -port.mean() / port.std(ddof=1)


def risk_parity(w, cov):
    """risk contributions w_i (Sigma w)_i equalised: squared deviations from the mean."""
    rc = w * (cov @ w)
    return np.sum((rc - rc.mean()) ** 2)


def cvar_smoothed(w, R, alpha=0.9, s=0.01):
    """Rockafellar-Uryasev CVaR with a smooth plus; VaR level as the last entry."""
    var_level, weights = w[-1], w[:-1]
    losses = -(R @ weights)
    excess = s * np.logaddexp(0.0, (losses - var_level) / s)
    return var_level + excess.mean() / (1 - alpha)


@dataclass
class Bond:
    coupon: float
    maturity: int
    face: float = 100.0
    times: list = field(default_factory=list)

    def cashflows(self):
        cf = np.full(self.maturity, self.coupon * self.face)
        cf[-1] += self.face
        return cf


def bond_duration(y, coupon=0.05):
    """price and Macaulay duration of a bond at yield y; the loss is the duration."""
    b = Bond(coupon, 6)
    t = np.arange(1, b.maturity + 1)
    disc = (1 + y) ** -t
    price = np.sum(b.cashflows() * disc)
    return np.sum(t * b.cashflows() * disc) / price


def vasicek_discount(params, Z, r0=0.03, dt=0.25):
    """short-rate paths by Euler; the discount factor exp(-sum r dt) averaged."""
    a, b, s = params
    r = np.full(Z.shape[0], r0)
    integral = np.zeros(Z.shape[0])
    for k in range(Z.shape[1]):
        integral += r * dt
        r = r + a * (b - r) * dt + s * np.sqrt(dt) * Z[:, k]
    return np.mean(np.exp(-integral))


def ewma_vol(lam, r):
    """RiskMetrics EWMA variance; the first variance from the first return."""
    v = r[0] ** 2
    out = []
    for x in r[1:]:
        v = lam * v + (1 - lam) * x * x
        out.append(v)
    return np.sqrt(np.array(out)).sum()


def delta_hedge_pnl(sigma, paths, K=1.0):
    """a discrete delta hedge: deltas from norm.cdf along fixed paths, P&L variance."""
    n = paths.shape[1] - 1
    dt = 1.0 / n
    pnl = np.zeros(paths.shape[0])
    for k in range(n):
        tau = 1.0 - k * dt
        d1 = (np.log(paths[:, k] / K) + 0.5 * sigma ** 2 * tau) / (sigma * np.sqrt(tau))
        pnl += norm.cdf(d1) * (paths[:, k + 1] - paths[:, k])
    return np.var(pnl - np.maximum(paths[:, -1] - K, 0.0))
