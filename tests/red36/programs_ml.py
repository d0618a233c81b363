"""red36: machine-learning programs written with ordinary habits (helpers returning
tuples and dicts, classes, views, builtins, closures)."""
import functools
from dataclasses import dataclass

import numpy as np


def _split_heads(x, n_heads):
    t, d = x.shape
    return x.reshape(t, n_heads, d // n_heads).transpose(1, 0, 2)


def multihead_attention(Wq, X, Wk, Wv):
    q, k, v = X @ Wq, X @ Wk, X @ Wv
    qh, kh, vh = _split_heads(q, 2), _split_heads(k, 2), _split_heads(v, 2)
    scores = qh @ kh.transpose(0, 2, 1) / np.sqrt(qh.shape[-1])
    scores = scores - scores.max(axis=-1, keepdims=True)
    w = np.exp(scores)
    w = w / w.sum(axis=-1, keepdims=True)
    out = (w @ vh).transpose(1, 0, 2).reshape(X.shape[0], -1)
    return np.sum(out ** 2)


def causal_attention(X):
    T = X.shape[0]
    scores = X @ X.T
    mask = np.triu(np.ones((T, T)), k=1).astype(bool)
    scores = np.where(mask, -1e9, scores)
    scores -= np.max(scores, axis=1, keepdims=True)
    p = np.exp(scores)
    p /= p.sum(axis=1, keepdims=True)
    return p @ X


def layer_norm(x, gamma, beta, eps=1e-5):
    mu = x.mean(axis=-1, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)
    return gamma * (x - mu) / np.sqrt(var + eps) + beta


def prenorm_block(W, X, gamma, beta):
    h = layer_norm(X, gamma, beta)
    return np.sum(np.tanh(h @ W)) + np.sum(X * h)


def rms_norm_loss(g, X):
    rms = np.sqrt(np.mean(X * X, axis=1, keepdims=True) + 1e-6)
    y = X / rms * g
    return float(np.sum(y[:, 0] * y[:, -1]))


def mdn_nll(params, x, y):
    """mixture density network: a dict of weights, a helper returning a tuple."""
    pi_logits, mu, log_sigma = _mdn_heads(params, x)
    pi_logits = pi_logits - pi_logits.max(axis=1, keepdims=True)
    log_pi = pi_logits - np.log(np.sum(np.exp(pi_logits), axis=1, keepdims=True))
    z = (y[:, None] - mu) / np.exp(log_sigma)
    comp = log_pi - 0.5 * z ** 2 - log_sigma - 0.5 * np.log(2 * np.pi)
    m = comp.max(axis=1, keepdims=True)
    ll = m[:, 0] + np.log(np.exp(comp - m).sum(axis=1))
    return -ll.mean()


def _mdn_heads(params, x):
    h = np.tanh(x[:, None] * params["w1"] + params["b1"])
    out = h @ params["w2"]
    k = out.shape[1] // 3
    return out[:, :k], out[:, k:2 * k], out[:, 2 * k:]


def vae_elbo(enc, x, eps):
    mu = x @ enc["Wm"]
    logvar = x @ enc["Wv"]
    z = mu + np.exp(0.5 * logvar) * eps
    recon = np.tanh(z @ enc["Wd"])
    rec_loss = np.sum((recon - x) ** 2)
    kl = -0.5 * np.sum(1 + logvar - mu ** 2 - np.exp(logvar))
    return rec_loss + kl


def _gru_cell(h, x, P):
    z = 1 / (1 + np.exp(-(P["Wz"] @ x + P["Uz"] @ h)))
    r = 1 / (1 + np.exp(-(P["Wr"] @ x + P["Ur"] @ h)))
    hh = np.tanh(P["Wh"] @ x + P["Uh"] @ (r * h))
    return (1 - z) * h + z * hh


def gru_loss(P, xs):
    h = np.zeros(P["Uz"].shape[0])
    outs = []
    for t, x in enumerate(xs):
        h = _gru_cell(h, x, P)
        outs.append(h.sum() * (t + 1))
    return sum(outs)


def conv2d_loop(K, img):
    kh, kw = K.shape
    H, W = img.shape
    out = np.zeros((H - kh + 1, W - kw + 1))
    for i in range(out.shape[0]):
        for j in range(out.shape[1]):
            out[i, j] = np.sum(img[i:i + kh, j:j + kw] * K)
    return np.sum(np.maximum(out, 0.0) ** 2)


def conv1d_strided(w, x):
    n = len(w)
    cols = np.stack([x[i:len(x) - n + 1 + i] for i in range(n)], axis=1)
    return cols @ w


def conv1d_as_strided(w, x):
    from numpy.lib.stride_tricks import as_strided
    n = len(w)
    m = len(x) - n + 1
    cols = as_strided(x, shape=(m, n), strides=(x.strides[0], x.strides[0]))
    return np.sum((cols @ w) ** 2)


class MLP:
    def __init__(self, sizes, seed=0):
        r = np.random.default_rng(seed)
        self.layers = [(r.normal(size=(a, b)) * 0.5, np.zeros(b)) for a, b in zip(sizes, sizes[1:])]

    def forward(self, x, act=np.tanh):
        for W, b in self.layers[:-1]:
            x = act(x @ W + b)
        W, b = self.layers[-1]
        return x @ W + b


def mlp_input_grad(x):
    net = MLP([3, 4, 2])
    return np.sum(net.forward(x) ** 2)


@dataclass
class Adam:
    lr: float = 0.1
    b1: float = 0.9
    b2: float = 0.999

    def step(self, w, g, m, v, t):
        m = self.b1 * m + (1 - self.b1) * g
        v = self.b2 * v + (1 - self.b2) * g * g
        mh = m / (1 - self.b1 ** t)
        vh = v / (1 - self.b2 ** t)
        return w - self.lr * mh / (np.sqrt(vh) + 1e-8), m, v


def adam_unrolled(w0, X, y):
    """meta-learning: loss after a few hand-derived Adam steps, in the initial weights."""
    opt = Adam()
    w, m, v = w0.copy(), np.zeros_like(w0), np.zeros_like(w0)
    for t in range(1, 4):
        r = X @ w - y
        g = X.T @ r / len(y)
        w, m, v = opt.step(w, g, m, v, t)
    return 0.5 * np.mean((X @ w - y) ** 2)


def label_smoothing(W, X, labels, eps=0.1):
    logits = X @ W
    k = logits.shape[1]
    target = np.full(logits.shape, eps / k)
    target[np.arange(len(labels)), labels] += 1 - eps
    logp = logits - np.log(np.exp(logits).sum(1, keepdims=True))
    return -(target * logp).sum() / len(labels)


def kl_divergence_logits(a, b):
    p = np.exp(a - a.max())
    p = p / p.sum()
    q = np.exp(b - b.max())
    q = q / q.sum()
    return np.sum(p * (np.log(p) - np.log(q)))


def gelu_mlp(W, x):
    h = x @ W
    g = 0.5 * h * (1 + np.tanh(np.sqrt(2 / np.pi) * (h + 0.044715 * h ** 3)))
    return g.sum()


def swish_lambda(w, X):
    act = lambda z: z / (1 + np.exp(-z))  # noqa: E731
    return np.mean(act(X @ w) ** 2)


def partial_activation(w, X):
    leaky = functools.partial(np.where, X @ w > 0)
    h = X @ w
    return np.sum(leaky(h, 0.1 * h) ** 2)


def maxout(W, X):
    h = X @ W
    a, b = h[:, ::2], h[:, 1::2]
    return np.sum(np.maximum(a, b))


def residual_stack(Ws, x):
    for W in Ws:
        x = x + np.tanh(W @ x)
    return x


def weight_decay_dict(params, X, y, decay=1e-2):
    pred = X @ params["w"] + params["b"]
    l2 = sum(np.sum(v ** 2) for k, v in params.items() if k != "b")
    return np.mean((pred - y) ** 2) + decay * l2


def triplet_loss(E, anchor, pos, neg, margin=0.5):
    d_pos = np.sum((E[anchor] - E[pos]) ** 2, axis=1)
    d_neg = np.sum((E[anchor] - E[neg]) ** 2, axis=1)
    return np.mean(np.maximum(d_pos - d_neg + margin, 0.0))


def cosine_sim_matrix(X):
    n = np.linalg.norm(X, axis=1, keepdims=True)
    Xn = X / n
    return Xn @ Xn.T


def ntxent(X, tau=0.5):
    S = cosine_sim_matrix(X) / tau
    n = S.shape[0]
    S = S - 1e9 * np.eye(n)
    idx = np.arange(n) ^ 1
    logp = S - np.log(np.sum(np.exp(S), axis=1, keepdims=True))
    return -np.mean(logp[np.arange(n), idx])


def pool_avg_max(X):
    a = X.reshape(2, 2, -1).mean(axis=1)
    m = X.reshape(2, 2, -1).max(axis=1)
    return np.concatenate([a.ravel(), m.ravel()])


def positional_encoding_loss(w, T=5):
    pos = np.arange(T)[:, None]
    i = np.arange(len(w))[None, :]
    pe = np.sin(pos / 10.0 ** (i / len(w)))
    return np.sum(np.tanh(pe * w) ** 2)


def ranking_loss(s, rel):
    order = np.argsort(-rel)
    s_sorted = s[order]
    loss = 0.0
    for i in range(len(s_sorted) - 1):
        loss += np.log1p(np.exp(-(s_sorted[i] - s_sorted[i + 1])))
    return loss


def knowledge_distill(W, X, teacher, T=2.0):
    logits = X @ W / T
    logits = logits - logits.max(axis=1)[:, None]
    logp = logits - np.log(np.exp(logits).sum(axis=1))[:, None]
    t = teacher / T
    pt = np.exp(t) / np.exp(t).sum(axis=1, keepdims=True)
    return -np.sum(pt * logp) * T * T


def dict_of_losses(w, X, y):
    pred = X @ w
    terms = {"mse": np.mean((pred - y) ** 2), "l1": 0.01 * np.sum(np.abs(w)),
             "var": np.var(pred)}
    return sum(terms.values())


def zip_layers(Ws, bs, x):
    for W, b in zip(Ws, bs):
        x = np.tanh(W @ x + b)
    return np.sum(x)


def batch_loop_mean(w, X, y, batch=3):
    losses = []
    for start in range(0, len(X), batch):
        xb, yb = X[start:start + batch], y[start:start + batch]
        losses.append(np.mean(np.logaddexp(0, -yb * (xb @ w))))
    return np.mean(losses)


def embedding_bag(E, bags):
    return np.sum([np.tanh(E[b].mean(axis=0)).sum() for b in bags])
