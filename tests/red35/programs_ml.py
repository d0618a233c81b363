"""Session 35 red team (red35) programs, ML: regressions, classifiers, MLPs with dict
parameters, normalisation, attention, mixtures, Gaussian processes, written the way users
write them (helpers returning tuples, defaults left out, views, print, dataclasses)."""
from dataclasses import dataclass

import numpy as np

from tests.optional_scipy import scipy_module
from transform import stop_gradient

special = scipy_module("special")
linalg = scipy_module("linalg")
stats = scipy_module("stats")
VERBOSE = False


def logreg_l2(w, X, y, lam=0.1):
    z = X @ w
    nll = np.sum(np.logaddexp(0.0, z) - y * z) / len(y)
    return nll + 0.5 * lam * np.dot(w, w)


def logreg_bias(params, X, y):
    w, b = params
    p = 1.0 / (1.0 + np.exp(-(X @ w + b)))
    p = np.clip(p, 1e-9, 1 - 1e-9)
    return -np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)) + 1e-2 * np.sum(w ** 2)


def _xent(logits, labels):
    shifted = logits - logits.max(axis=1, keepdims=True)
    probs = np.exp(shifted)
    probs = probs / probs.sum(axis=1, keepdims=True)
    n = logits.shape[0]
    loss = -np.mean(np.log(probs[np.arange(n), labels]))
    return loss, probs


def softmax_xent_aux(W, X, labels):
    loss, probs = _xent(X @ W, labels)
    if VERBOSE:
        print("loss", loss)
    return loss, probs


def softmax_xent(W, X, labels):
    loss, _ = _xent(X @ W, labels)
    return loss + 0.01 * np.sum(W * W)


def softmax_onehot(W, X, Y):
    logits = X @ W
    logp = logits - special.logsumexp(logits, axis=1, keepdims=True)
    return -np.sum(Y * logp) / X.shape[0]


def _dense(x, W, b, act=np.tanh):
    return act(x @ W + b)


def mlp_dict(params, X, y):
    h = _dense(X, params["W1"], params["b1"])
    out = h @ params["W2"] + params["b2"]
    resid = out.ravel() - y
    return 0.5 * np.mean(resid ** 2)


def mlp_dict_l2(params, X, y):
    loss = mlp_dict(params, X, y)
    reg = 0.0
    for name, p in params.items():
        if name.startswith("W"):
            reg = reg + np.sum(p ** 2)
    return loss + 1e-3 * reg


def mlp_flat_relu(theta, X, y):
    W1 = theta[:6].reshape(2, 3)
    b1 = theta[6:9]
    w2 = theta[9:12]
    h = np.maximum(X @ W1 + b1, 0.0)
    pred = h @ w2
    return np.mean((pred - y) ** 2)


def mlp_softplus(theta, X):
    W1 = theta[:6].reshape(3, 2).T
    h = np.log1p(np.exp(X @ W1.T))
    return h @ theta[6:8]


def layernorm(x, gamma, beta, eps=1e-5):
    mu = x.mean(axis=-1, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)
    return gamma * (x - mu) / np.sqrt(var + eps) + beta


def layernorm_vec(x):
    return layernorm(x, np.linspace(0.5, 1.5, x.shape[-1]), 0.1)


def layernorm_loss(gamma, x):
    y = layernorm(x, gamma, 0.0)
    return np.sum(np.tanh(y) ** 2)


def attention_out(q, K, V):
    scores = K @ q / np.sqrt(q.shape[0])
    scores = scores - np.max(scores)
    a = np.exp(scores)
    a = a / a.sum()
    return a @ V


def self_attention(X, Wq, Wk):
    Q = X @ Wq
    K = X @ Wk
    S = Q @ K.T / np.sqrt(Q.shape[1])
    A = special.softmax(S, axis=1)
    return (A @ X).reshape(-1)


def gmm_loglik(mu, x, log_sigma, logits):
    w = logits - special.logsumexp(logits)
    sig = np.exp(log_sigma)
    z = (x[:, None] - mu[None, :]) / sig
    comp = -0.5 * z ** 2 - np.log(sig) - 0.5 * np.log(2 * np.pi) + w
    m = comp.max(axis=1, keepdims=True)
    ll = m[:, 0] + np.log(np.exp(comp - m).sum(axis=1))
    return -ll.sum()


def gmm_stats(mu, x):
    ll = 0.0
    for xi in x:
        ps = [0.5 * stats.norm.pdf(xi, loc=m, scale=1.0) for m in mu]
        ll += np.log(sum(ps))
    return -ll


def _rbf(X, ls, var):
    d2 = np.sum((X[:, None, :] - X[None, :, :]) ** 2, axis=-1)
    return var * np.exp(-0.5 * d2 / ls ** 2)


def gp_mll(log_theta, X, y):
    ls, var, noise = np.exp(log_theta)
    K = _rbf(X, ls, var) + (noise + 1e-6) * np.eye(len(y))
    L = np.linalg.cholesky(K)
    alpha = linalg.solve_triangular(L.T, linalg.solve_triangular(L, y, lower=True))
    return 0.5 * y @ alpha + np.sum(np.log(np.diag(L))) + 0.5 * len(y) * np.log(2 * np.pi)


def gp_mll_solve(log_theta, X, y):
    ls, var, noise = np.exp(log_theta[0]), np.exp(log_theta[1]), np.exp(log_theta[2])
    K = _rbf(X, ls, var) + noise * np.eye(X.shape[0])
    sign, logdet = np.linalg.slogdet(K)
    return 0.5 * y @ np.linalg.solve(K, y) + 0.5 * logdet


@dataclass
class Linear:
    W: np.ndarray
    b: np.ndarray


def dc_mlp(layer, X, y):
    h = np.tanh(X @ layer.W + layer.b)
    return np.mean((h.sum(axis=1) - y) ** 2)


def batchnorm_loss(x):
    mu = x.mean(0)
    sd = x.std(0)
    xh = (x - mu) / (sd + 1e-3)
    return np.sum(xh.T @ xh * np.arange(1.0, 4.0))


def hinge_l2(w, X, y):
    margins = 1.0 - y * (X @ w)
    return np.mean(np.maximum(margins, 0.0) ** 2) + 0.05 * np.linalg.norm(w) ** 2


def target_net_td(w, s, s_next, r, gamma=0.9):
    target = r + gamma * np.tanh(stop_gradient(w) @ s_next)
    pred = np.tanh(w @ s)
    return np.sum((pred - target) ** 2)


def ema_baseline(theta, xs):
    baseline = 0.0
    total = 0.0
    for x in xs:
        f = np.sin(theta * x)
        total = total + (f - stop_gradient(baseline)) * f
        baseline = 0.9 * baseline + 0.1 * f
    return total


def contrastive(z1, z2, tau=0.5):
    a = z1 / np.linalg.norm(z1, axis=1, keepdims=True)
    b = z2 / np.linalg.norm(z2, axis=1, keepdims=True)
    S = a @ b.T / tau
    logp = S - special.logsumexp(S, axis=1, keepdims=True)
    return -np.mean(np.diag(logp))


def focal_loss(w, X, y, gamma=2.0):
    p = special.expit(X @ w)
    pt = np.where(y > 0.5, p, 1 - p)
    return -np.sum((1 - pt) ** gamma * np.log(pt))


def train_steps(w, X, y, lr=0.1, steps=3):
    """Unrolled gradient descent with a hand-written gradient; returns the final loss."""
    history = []
    for t in range(steps):
        p = special.expit(X @ w)
        g = X.T @ (p - y) / len(y)
        w = w - lr * g
        history.append(np.mean((p - y) ** 2))
        if VERBOSE:
            print(f"step {t}: {history[-1]:.4f}")
    return history[-1] + np.sum(w ** 2)


def rbf_features(c, x):
    phi = np.exp(-(x[:, None] - c[None, :]) ** 2)
    return phi.T @ x


def embedding_loss(E, idx, targets):
    v = E[idx]
    return np.sum((v.sum(axis=0) - targets) ** 2)


def poly_ridge(w, x, y):
    V = np.vander(x, 3)
    r = V @ w - y
    return r @ r + 0.1 * w @ w


def target_net_fixed(w, w_held, s, s_next, r, gamma=0.9):
    """target_net_td with the stopped weights an argument held by the differences."""
    target = r + gamma * np.tanh(w_held @ s_next)
    return np.sum((np.tanh(w @ s) - target) ** 2)


def ema_fixed(theta, xs, baselines):
    total = 0.0
    for x, b in zip(xs, baselines):
        f = np.sin(theta * x)
        total = total + (f - b) * f
    return total


def ema_baselines(theta, xs):
    out, b = [], 0.0
    for x in xs:
        out.append(b)
        b = 0.9 * b + 0.1 * np.sin(theta * x)
    return out


def straight_through(x, W):
    q = x + stop_gradient(np.round(x * 2) / 2 - x)
    return np.sum(np.tanh(W @ q) ** 2)


def straight_through_fixed(x, W, shift):
    return np.sum(np.tanh(W @ (x + shift)) ** 2)


def _loss_and_metrics(w, X, y):
    p = special.expit(X @ w)
    loss = -np.mean(y * np.log(p) + (1 - y) * np.log1p(-p))
    acc = np.mean((p > 0.5) == (y > 0.5))
    return loss, {"acc": acc, "p": p, "n": len(y)}


def logreg_aux(w, X, y):
    loss, metrics = _loss_and_metrics(w, X, y)
    return loss + 0.01 * w @ w, metrics


def mlp_aux(params, X, y):
    h = np.tanh(X @ params["W"] + params["b"])
    pred = h.sum(axis=1)
    return np.mean((pred - y) ** 2), (pred, "mse")


def gp_aux(log_theta, X, y):
    nll = gp_mll_solve(log_theta, X, y)
    return nll, np.exp(log_theta)
