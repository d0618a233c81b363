"""red39: small networks for Hessian-vector products: MLPs unpacked from a flat vector,
an Elman RNN with a list of states, small classes with __call__, lambdas, a planar
flow, minibatch loops, a tied autoencoder, unrolled inner optimisation."""
from dataclasses import dataclass
from functools import partial

import numpy as np
from scipy.special import expit, logsumexp

SHAPES = ((3, 4), (4,), (4, 1), (1,))


def _unflatten(theta, shapes=SHAPES):
    out = []
    start = 0
    for s in shapes:
        n = int(np.prod(s))
        out.append(theta[start:start + n].reshape(s))
        start += n
    return tuple(out)


def mlp_mse(theta, X, y):
    W1, b1, W2, b2 = _unflatten(theta)
    h = np.tanh(X @ W1 + b1)
    pred = (h @ W2 + b2)[:, 0]
    return np.mean((pred - y) ** 2)


def rnn_states(theta, xs):
    """an Elman RNN: hidden states appended to a list, np.stack, a readout loss."""
    Wh = theta[:9].reshape(3, 3)
    Wx = theta[9:15].reshape(3, 2)
    v = theta[15:18]
    h = np.zeros(3)
    hs = []
    for x in xs:
        h = np.tanh(Wh @ h + Wx @ x)
        hs.append(h)
    H = np.stack(hs)
    out = H @ v
    return np.sum(out ** 2) / len(xs)


class Dense:
    def __init__(self, W, b, act=np.tanh):
        self.W = W
        self.b = b
        self.act = act

    def __call__(self, x):
        return self.act(x @ self.W + self.b)


def dense_layers(theta, X):
    """two Dense objects built from slices (the second with a lambda activation)."""
    l1 = Dense(theta[:6].reshape(3, 2), theta[6:8])
    l2 = Dense(theta[8:10].reshape(2, 1), theta[10:11], act=lambda z: z)
    return np.sum(l2(l1(X)) ** 2)


def _softplus(z, beta=1.0):
    return np.logaddexp(0.0, beta * z) / beta


def partial_act_mlp(theta, X):
    act = partial(_softplus, beta=2.0)
    W = theta[:6].reshape(3, 2)
    h = act(X @ W)
    return np.sum(h * h) + 0.1 * np.sum(W ** 2)


def lambda_stack(w, x):
    """a stack of activations from a list of lambdas applied in a loop."""
    acts = [np.tanh, lambda z: z / (1 + z * z), np.sin]
    h = x
    for k, act in enumerate(acts):
        h = act(w[k] * h + 0.1 * k)
    return np.sum(h ** 2)


def attention_softmax(q, K, V):
    """single-query attention; a helper returns (probs, lse), K.T used."""
    def softmax(s):
        lse = logsumexp(s)
        return np.exp(s - lse), lse
    p, lse = softmax(q @ K.T / np.sqrt(len(q)))
    return np.sum((p @ V) ** 2) + 0.1 * lse


def planar_flow(params, Z):
    """one planar flow z + u tanh(w.z + b): log-density of a standard normal base."""
    u, w, b = params[:2], params[2:4], params[4]
    a = Z @ w + b
    Zt = Z + np.tanh(a)[:, None] * u
    psi = (1 - np.tanh(a) ** 2)[:, None] * w
    logdet = np.log(np.abs(1 + psi @ u))
    return np.sum(0.5 * np.sum(Zt ** 2, axis=1) - logdet)


def minibatch_loss(w, X, y, bs=2):
    """a loop over minibatches X[i:i + bs]; per-batch losses stacked then averaged."""
    losses = []
    for i in range(0, len(X), bs):
        xb, yb = X[i:i + bs], y[i:i + bs]
        losses.append(np.mean(np.logaddexp(0.0, xb @ w) - yb * (xb @ w)))
    return np.mean(np.stack(losses))


def tied_autoencoder(w, X):
    """weights used as W and W.T; a sigmoid by scipy's expit."""
    W = w.reshape(3, 2)
    code = expit(X @ W)
    recon = code @ W.T
    return 0.5 * np.sum((recon - X) ** 2)


def unrolled_lr(lr, X, y, Xv, yv, steps=5):
    """the validation loss after unrolled gradient descent (a hand gradient, an
    in-place update of a copy) as a function of the learning rate (a float)."""
    w = np.zeros(X.shape[1])
    for step in range(steps):
        g = X.T @ (X @ w - y) / len(y)
        w -= lr * g
    r = Xv @ w - yv
    return 0.5 * r @ r


@dataclass
class TrainConfig:
    lr: float = 0.1
    l2: float = 0.01


def sgd_config(w0, X, y, cfg=TrainConfig()):
    """three SGD steps with a dataclass config left at its defaults; print progress."""
    w = w0.copy()
    for epoch in range(3):
        z = X @ w
        g = X.T @ (expit(z) - y) + cfg.l2 * w
        w = w - cfg.lr * g
        if epoch == 2:
            print(f"epoch {epoch}")
    z = X @ w
    return np.sum(np.logaddexp(0.0, z) - y * z)


def residual_block(theta, X):
    """x + f(x) residual blocks, weights from a reshaped view, a loop over blocks."""
    Ws = theta.reshape(2, 3, 3)
    h = X
    for k in range(Ws.shape[0]):
        h = h + 0.5 * np.tanh(h @ Ws[k])
    return np.sum(h[:, 0] * h[:, -1])


def gated_unit(theta, xs):
    """a minimal gated recurrence (update gate by expit) over a sequence."""
    wz, uz, wh, uh = theta
    h = 0.0
    for x in xs:
        z = expit(wz * x + uz * h)
        cand = np.tanh(wh * x + uh * h)
        h = (1 - z) * h + z * cand
    return h * h


def energy_model(theta, xs, grid):
    """an energy-based density on a grid: log Z by scipy's logsumexp."""
    def energy(x, theta=theta):
        return theta[0] * x ** 2 + theta[1] * x ** 4 + theta[2] * x
    logZ = logsumexp(-energy(grid)) + np.log(grid[1] - grid[0])
    return np.sum(energy(xs)) + len(xs) * logZ


def hvp_of_network(*args):
    """a loss taking its parameters through *args."""
    theta, X = args
    W = theta.reshape(2, 2)
    return np.sum(np.tanh(X @ W) ** 2) + np.sum(W @ W.T)


def layer_norm_mlp(theta, X, eps=1e-5):
    W = theta.reshape(3, 3)
    h = X @ W
    mu = h.mean(axis=1, keepdims=True)
    var = ((h - mu) ** 2).mean(axis=1, keepdims=True)
    hn = (h - mu) / np.sqrt(var + eps)
    return np.sum(np.tanh(hn) * X)
