"""red40: neural-network losses as people write them: masked and rotary attention,
layer norm as a class with properties, LSTM and GRU cells returning tuples and dicts,
mixture density heads, a VAE's ELBO with a fixed reparametrisation draw, InfoNCE and
margin contrastive losses, focal loss, weight norm, gated feed-forward layers."""
from dataclasses import dataclass
from functools import partial

import numpy as np
from scipy.special import logsumexp


def _softmax(z, axis=-1):
    z = z - z.max(axis=axis, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=axis, keepdims=True)


def causal_attention_mask(theta, X):
    """single-head causal self-attention: Q, K, V from slices of a flat vector, a mask
    from np.triu, -1e9 where masked."""
    d = X.shape[1]
    Wq, Wk, Wv = (theta[i * d * 2:(i + 1) * d * 2].reshape(d, 2) for i in range(3))
    Q, K, V = X @ Wq, X @ Wk, X @ Wv
    scores = Q @ K.T / np.sqrt(2.0)
    mask = np.triu(np.ones((len(X), len(X)), dtype=bool), k=1)
    scores = np.where(mask, -1e9, scores)
    A = _softmax(scores, axis=1)
    return np.sum((A @ V) ** 2)


def attention_temperature(tau, q, K, V):
    """attention pooling with a temperature differentiated."""
    w = _softmax(K @ q / tau)
    out = w @ V
    return np.sum(out ** 2) + np.sum(w * np.log(w))


def rotary_attention(x, Wq, Wk):
    """rotary position embeddings: even/odd slices rotated by position-dependent angles."""
    n, d = x.shape
    pos = np.arange(n)[:, None]
    freqs = 1.0 / (10.0 ** (np.arange(0, d // 2) / (d // 2)))
    ang = pos * freqs[None, :]
    cos, sin = np.cos(ang), np.sin(ang)

    def rotate(z):
        z1, z2 = z[:, ::2], z[:, 1::2]
        return np.concatenate([z1 * cos - z2 * sin, z1 * sin + z2 * cos], axis=1)

    q, k = rotate(x @ Wq), rotate(x @ Wk)
    a = _softmax(q @ k.T)
    return np.sum(a * (q @ k.T))


def rotary_loss(theta, x):
    d = x.shape[1]
    return rotary_attention(x, theta[:d * d].reshape(d, d), theta[d * d:].reshape(d, d))


class LayerNorm:
    def __init__(self, gamma, beta, eps=1e-5):
        self._gamma = gamma
        self._beta = beta
        self.eps = eps

    @property
    def gamma(self):
        return self._gamma

    @property
    def shift(self):
        return self._beta

    def __call__(self, x):
        mu = x.mean(axis=-1, keepdims=True)
        var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)
        return self.gamma * (x - mu) / np.sqrt(var + self.eps) + self.shift


def layer_norm_class(theta, X):
    ln = LayerNorm(theta[:3], theta[3:6], eps=1e-3)
    h = np.tanh(ln(X))
    return np.sum(h[:, 0] * h[:, 1]) + 0.5 * np.sum(h[:, 2] ** 2)


def layer_norm_input(X, g):
    """the same LayerNorm differentiated with respect to its input."""
    return np.sum(np.sin(LayerNorm(g, 0.1 * g)(X)))


def _lstm_cell(x, h, c, W, U, b):
    z = W @ x + U @ h + b
    i, f, g, o = np.split(z, 4)
    sig = lambda a: 1.0 / (1.0 + np.exp(-a))
    c = sig(f) * c + sig(i) * np.tanh(g)
    h = sig(o) * np.tanh(c)
    return h, c


def lstm_sequence(theta, xs):
    """an LSTM cell over a sequence; the cell returns (h, c)."""
    H, D = 2, xs.shape[1]
    W = theta[:4 * H * D].reshape(4 * H, D)
    U = theta[4 * H * D:4 * H * D + 4 * H * H].reshape(4 * H, H)
    b = theta[4 * H * D + 4 * H * H:]
    h, c = np.zeros(H), np.zeros(H)
    for t in range(len(xs)):
        h, c = _lstm_cell(xs[t], h, c, W, U, b)
    return np.sum(h ** 2) + 0.1 * np.sum(c)


def _gru_step(x, h, p):
    r = 1 / (1 + np.exp(-(p["Wr"] @ x + p["Ur"] @ h)))
    z = 1 / (1 + np.exp(-(p["Wz"] @ x + p["Uz"] @ h)))
    n = np.tanh(p["Wn"] @ x + r * (p["Un"] @ h))
    return {"h": (1 - z) * n + z * h, "z": z}


def gru_dict_params(theta, xs):
    """GRU parameters in a dict built by a comprehension; the step returns a dict."""
    names = ["Wr", "Ur", "Wz", "Uz", "Wn", "Un"]
    p = {nm: theta[4 * k:4 * k + 4].reshape(2, 2) for k, nm in enumerate(names)}
    h = np.zeros(2)
    gates = []
    for x in xs:
        out = _gru_step(x, h, p)
        h = out["h"]
        gates.append(out["z"].mean())
    return np.sum(h ** 2) + 0.1 * sum(gates)


def mdn_mixture_nll(theta, x, y):
    """a mixture density network: one hidden layer, K Gaussian heads, logsumexp."""
    K = 3
    W1, b1 = theta[:4].reshape(1, 4), theta[4:8]
    Wo = theta[8:8 + 4 * 3 * K].reshape(4, 3 * K)
    h = np.tanh(x[:, None] @ W1 + b1)
    out = h @ Wo
    logits, mu, log_s = out[:, :K], out[:, K:2 * K], out[:, 2 * K:]
    logpi = logits - logsumexp(logits, axis=1, keepdims=True)
    z = (y[:, None] - mu) / np.exp(log_s)
    comp = -0.5 * z ** 2 - log_s - 0.5 * np.log(2 * np.pi)
    return -np.mean(logsumexp(logpi + comp, axis=1))


def vae_elbo_reparam(theta, X, eps):
    """a linear-Gaussian VAE: mu, logvar from an encoder, z = mu + exp(logvar/2) * eps
    with fixed draws, Bernoulli decoder logits, analytic KL."""
    D, L = X.shape[1], 2
    We, be = theta[:D * 2 * L].reshape(D, 2 * L), theta[D * 2 * L:D * 2 * L + 2 * L]
    Wd = theta[D * 2 * L + 2 * L:].reshape(L, D)
    enc = X @ We + be
    mu, logvar = enc[:, :L], enc[:, L:]
    z = mu + np.exp(0.5 * logvar) * eps
    logits = z @ Wd
    rec = np.sum(X * logits - np.logaddexp(0, logits), axis=1)
    kl = 0.5 * np.sum(np.exp(logvar) + mu ** 2 - 1.0 - logvar, axis=1)
    elbo = np.mean(rec - kl)
    return -elbo


def infonce(theta, A, B, temperature=0.5):
    """InfoNCE with cosine similarities: rows of A and B projected, normalised."""
    W = theta.reshape(A.shape[1], 2)
    za, zb = A @ W, B @ W
    za = za / np.linalg.norm(za, axis=1, keepdims=True)
    zb = zb / np.linalg.norm(zb, axis=1, keepdims=True)
    S = za @ zb.T / temperature
    return np.mean(logsumexp(S, axis=1) - np.diag(S))


def margin_contrastive(theta, X1, X2, same):
    """Hadsell's contrastive loss: squared distance for similar pairs, a squared hinge
    max(0, m - d) for dissimilar ones."""
    W = theta.reshape(X1.shape[1], 2)
    d = np.sqrt(np.sum((X1 @ W - X2 @ W) ** 2, axis=1) + 1e-9)
    m = 2.0
    hinge = np.maximum(0.0, m - d)
    return np.mean(same * d ** 2 + (1 - same) * hinge ** 2)


def focal_loss(w, X, y, gamma=2.0, alpha=0.25):
    p = 1.0 / (1.0 + np.exp(-(X @ w)))
    pt = np.where(y == 1, p, 1 - p)
    at = np.where(y == 1, alpha, 1 - alpha)
    return -np.mean(at * (1 - pt) ** gamma * np.log(pt))


def focal_partial(w, X, y):
    loss = partial(focal_loss, gamma=1.5)
    return loss(w, X, y, alpha=0.4)


def weight_norm_layer(v, X):
    """weight normalisation: w = g v / ||v|| with a fixed g, then softplus."""
    V = v.reshape(3, 2)
    g = np.array([1.5, 0.7])
    W = g * V / np.linalg.norm(V, axis=0)
    h = np.log1p(np.exp(X @ W))
    return np.sum(h ** 2)


@dataclass
class SwiGLU:
    W: np.ndarray
    V: np.ndarray
    W2: np.ndarray

    def __call__(self, x):
        a = x @ self.W
        swish = a / (1.0 + np.exp(-a))
        return (swish * (x @ self.V)) @ self.W2


def swiglu_ffn(theta, X):
    ffn = SwiGLU(theta[:6].reshape(3, 2), theta[6:12].reshape(3, 2), theta[12:18].reshape(2, 3))
    out = X + ffn(X)
    return np.mean(out ** 2)


def cross_entropy_take(theta, X, labels):
    """cross entropy via np.take_along_axis of log-probabilities."""
    logits = X @ theta.reshape(X.shape[1], 3)
    logp = logits - logsumexp(logits, axis=1, keepdims=True)
    picked = np.take_along_axis(logp, labels[:, None], axis=1)
    return -picked.mean()


def beta_vae_schedule(theta, X, eps):
    """KL annealing: the loss summed over a list of betas by a comprehension."""
    betas = [0.1 * k for k in range(1, 4)]
    enc = X @ theta[:6].reshape(3, 2)
    mu, logvar = enc[:, :1], enc[:, 1:]
    z = mu + np.exp(logvar / 2) * eps
    rec = np.sum((X - z @ theta[6:9].reshape(1, 3)) ** 2)
    kl = -0.5 * np.sum(1 + logvar - mu ** 2 - np.exp(logvar))
    return sum([rec + b * kl for b in betas]) / len(betas)


def dropout_fixed_mask(theta, X, mask, p=0.5):
    W1, W2 = theta[:6].reshape(3, 2), theta[6:8]
    h = np.tanh(X @ W1)
    h = h * mask / (1 - p)
    return np.mean((h @ W2 - 1.0) ** 2)
