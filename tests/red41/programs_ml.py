"""red41: machine learning as people write it, beyond red36-red40's: a transformer block
with multi-head reshape/transpose, label-smoothed cross entropy, conv1d by np.convolve
and by sliding windows, max pooling, skip-gram negative sampling with np.add.at, matrix
factorisation by index arrays, t-SNE's KL, soft-DTW, a linear-chain CRF, RBM free
energy, Gumbel-softmax with fixed noise, mixture of experts, knowledge distillation."""
from typing import NamedTuple

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view
from scipy.special import logsumexp, log_softmax, softmax


def gelu(x):
    return 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3)))


def layer_norm(x, eps=1e-5):
    mu = x.mean(-1, keepdims=True)
    var = x.var(-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps)


class BlockParams(NamedTuple):
    Wqkv: np.ndarray
    Wo: np.ndarray
    W1: np.ndarray
    W2: np.ndarray


def unpack_block(theta, d=4, hidden=6):
    sizes = [(d, 3 * d), (d, d), (d, hidden), (hidden, d)]
    out, i = [], 0
    for r, c in sizes:
        out.append(theta[i:i + r * c].reshape(r, c))
        i += r * c
    return BlockParams(*out)


def transformer_block(theta, X, heads=2):
    """pre-norm block: multi-head attention by reshape/transpose, a GELU MLP, residuals."""
    p = unpack_block(theta)
    n, d = X.shape
    dh = d // heads
    qkv = layer_norm(X) @ p.Wqkv
    q, k, v = np.split(qkv, 3, axis=-1)
    q = q.reshape(n, heads, dh).transpose(1, 0, 2)
    k = k.reshape(n, heads, dh).transpose(1, 0, 2)
    v = v.reshape(n, heads, dh).transpose(1, 0, 2)
    att = softmax(q @ k.transpose(0, 2, 1) / np.sqrt(dh), axis=-1)
    o = (att @ v).transpose(1, 0, 2).reshape(n, d)
    H = X + o @ p.Wo
    H = H + gelu(layer_norm(H) @ p.W1) @ p.W2
    return np.mean(H ** 2)


def smoothed_cross_entropy(W, X, labels, eps=0.1):
    """softmax cross entropy with label smoothing, logsumexp written out by hand."""
    logits = X @ W
    m = logits.max(axis=1, keepdims=True)
    lse = m[:, 0] + np.log(np.sum(np.exp(logits - m), axis=1))
    logp = logits - lse[:, None]
    k = W.shape[1]
    target = np.full(logits.shape, eps / k)
    target[np.arange(len(labels)), labels] += 1 - eps
    return -np.sum(target * logp) / len(labels)


def conv1d_convolve(w, x, y):
    """a two-channel 1D convolution by np.convolve ('valid'), ReLU-free tanh, MSE."""
    taps = w.reshape(2, 3)
    out = sum(np.convolve(x[c], taps[c], mode="valid") for c in range(2))
    return np.mean((np.tanh(out) - y) ** 2)


def conv1d_windows(w, x):
    """conv1d by sliding_window_view and einsum: channels in, channels out."""
    W = w.reshape(3, 2, 3)          # out, in, taps
    win = sliding_window_view(x, 3, axis=1)     # in, positions, taps
    out = np.einsum("oit,ipt->op", W, win)
    return np.sum(np.tanh(out) ** 2)


def maxpool_net(w, x):
    """conv by np.correlate, max pooling by reshape and max, a linear readout."""
    h = np.tanh(np.correlate(x, w[:3], mode="valid"))
    h = h[: len(h) // 2 * 2].reshape(-1, 2).max(axis=1)
    return np.sum(h * w[3:3 + len(h)])


def skipgram_negative_sampling(E, C, centers, contexts, negatives):
    """word2vec's loss; the hand-written embedding gradient is not used, the loss is."""
    loss = 0.0
    for c, o, negs in zip(centers, contexts, negatives):
        v = E[c]
        loss -= np.log(1 / (1 + np.exp(-C[o] @ v)))
        loss -= np.sum(np.log(1 / (1 + np.exp(C[negs] @ v))))
    return loss


def embedding_scatter(W, tokens, y):
    """bag-of-words: sum embeddings per document by np.add.at into a zero buffer."""
    docs = np.zeros((3, W.shape[1]))
    doc_id = np.array([0, 0, 1, 1, 1, 2, 2, 0])
    np.add.at(docs, doc_id, W[tokens])
    pred = np.tanh(docs).sum(axis=1)
    return np.sum((pred - y) ** 2)


def matrix_factorisation(theta, rows, cols, vals, k=2, lam=0.05):
    """ratings as U[rows] . V[cols] plus user/item biases; L2 penalty."""
    nu, ni = 4, 5
    U = theta[:nu * k].reshape(nu, k)
    V = theta[nu * k:(nu + ni) * k].reshape(ni, k)
    bu = theta[(nu + ni) * k:(nu + ni) * k + nu]
    bi = theta[(nu + ni) * k + nu:]
    pred = np.sum(U[rows] * V[cols], axis=1) + bu[rows] + bi[cols]
    return np.mean((pred - vals) ** 2) + lam * (np.sum(U ** 2) + np.sum(V ** 2))


def tsne_kl(Y, P):
    """t-SNE's KL(P || Q) with Student-t affinities, the diagonal masked."""
    Y = Y.reshape(-1, 2)
    D = np.sum((Y[:, None, :] - Y[None, :, :]) ** 2, axis=-1)
    num = 1 / (1 + D)
    np.fill_diagonal(num, 0.0)
    Q = num / num.sum()
    mask = ~np.eye(len(Y), dtype=bool)
    return np.sum(P[mask] * np.log(P[mask] / Q[mask]))


def _softmin(a, b, c, gamma):
    vals = np.array([a, b, c])
    return -gamma * logsumexp(-vals / gamma)


def soft_dtw(x, y, gamma=0.5):
    """soft dynamic time warping between two 1D series, R filled in a double loop."""
    n, m = len(x), len(y)
    R = np.full((n + 1, m + 1), np.inf)
    R[0, 0] = 0.0
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            cost = (x[i - 1] - y[j - 1]) ** 2
            R[i, j] = cost + _softmin(R[i - 1, j - 1], R[i - 1, j], R[i, j - 1], gamma)
    return R[n, m]


def crf_log_likelihood(theta, X, tags, k=3):
    """linear-chain CRF: emissions X @ W, transitions T, the log partition by the forward
    recursion, minus the gold path's score."""
    d = X.shape[1]
    W = theta[:d * k].reshape(d, k)
    T = theta[d * k:].reshape(k, k)
    em = X @ W
    alpha = em[0]
    for t in range(1, len(X)):
        alpha = logsumexp(alpha[:, None] + T, axis=0) + em[t]
    logZ = logsumexp(alpha)
    gold = em[np.arange(len(tags)), tags].sum() + sum(T[a, b] for a, b in zip(tags[:-1], tags[1:]))
    return logZ - gold


def rbm_free_energy(theta, V, nv=4, nh=3):
    """binary RBM: F(v) = -b.v - sum log(1 + exp(c + v W)), averaged over data."""
    W = theta[:nv * nh].reshape(nv, nh)
    b = theta[nv * nh:nv * nh + nv]
    c = theta[nv * nh + nv:]
    return np.mean(-V @ b - np.sum(np.logaddexp(0, c + V @ W), axis=1))


def gumbel_softmax_loss(logits, g, values, tau=0.5):
    """relaxed one-hot samples with fixed Gumbel noise, expected value under them."""
    y = softmax((logits[None, :] + g) / tau, axis=1)
    return np.mean(y @ values) + 0.01 * np.sum(logits ** 2)


def mixture_of_experts(theta, X, y, experts=3):
    """softmax gating over linear experts, squared error of the gated prediction."""
    d = X.shape[1]
    G = theta[:d * experts].reshape(d, experts)
    E = theta[d * experts:].reshape(d, experts)
    gate = softmax(X @ G, axis=1)
    preds = X @ E
    out = np.sum(gate * preds, axis=1)
    return np.mean((out - y) ** 2)


def distillation_loss(W, X, teacher_logits, labels, T=3.0, alpha=0.7):
    """soft targets at temperature T (log_softmax from scipy) plus hard-label CE."""
    s = X @ W
    soft = -np.sum(softmax(teacher_logits / T, axis=1) * log_softmax(s / T, axis=1), axis=1)
    hard = -log_softmax(s, axis=1)[np.arange(len(labels)), labels]
    return np.mean(alpha * T * T * soft + (1 - alpha) * hard)


def batchnorm_train(theta, X):
    """batch norm over the batch axis with affine parameters, then a tanh layer."""
    gamma, beta = theta[:3], theta[3:6]
    mu = X.mean(axis=0)
    var = X.var(axis=0)
    Xn = gamma * (X - mu) / np.sqrt(var + 1e-5) + beta
    return np.sum(np.tanh(Xn) @ theta[6:9])


def diffusion_denoise_loss(w, x0, eps, t_idx):
    """DDPM's loss: noise x0 by a cosine schedule at fixed steps, predict the noise with
    a linear model, squared error."""
    T = 10
    s = np.arange(T + 1) / T
    abar = np.cos((s + 0.008) / 1.008 * np.pi / 2) ** 2
    abar = abar / abar[0]
    a = abar[t_idx][:, None]
    xt = np.sqrt(a) * x0 + np.sqrt(1 - a) * eps
    W = w[:4].reshape(2, 2)
    pred = xt @ W + w[4] * t_idx[:, None] / T
    return np.mean((pred - eps) ** 2)
