"""The differentiated functions of the benchmarks, their data and hand-written gradients.

thunkgrad reads source with `inspect`, so every function it differentiates is a
module-level function here. `benchmarks/policies.py` (issue 4) and
`benchmarks/run.py` (issue 8) share them.

Hand-written gradients keep the primal's loop structure ("hand-loop"): a
forward loop that saves what the backward loop needs, then a backward loop.
Each returns the gradient with respect to the same arguments as the thunkgrad
call it is compared with (one array, or a tuple of them); like `grad`, each
runs the forward pass too.
"""
import math

import numpy as np


# ---- the seed MWE (Zygote issue): W1, policies case 1 -----------------------
def seed(W, xs):
    return sum((W @ xi)[0] for xi in xs)


def seed_data(n=512):
    return np.ones((10, 10), dtype=np.float32), [np.ones(10, dtype=np.float32)
                                                 for _ in range(n)]


def seed_hand(W, xs):
    """d/dW of sum((W @ x)[0]): only row 0 gets each x."""
    total = 0.0
    for xi in xs:
        total = total + (W @ xi)[0]
    dW = np.zeros_like(W)
    for xi in xs:
        dW[0] += xi
    return dW


# ---- bias only in a dense loop: W3, policies case 2 -------------------------
def bias_loop(W, b, x, n):
    s = 0.0
    for i in range(n):
        s = s + np.sum(np.tanh(W @ x + b))
    return s


def bias_data(n=500, seed=0):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(3, 10)), rng.normal(size=3), rng.normal(size=10), n


def bias_hand(W, b, x, n):
    """d/db, with the forward loop saving tanh outputs for the backward loop."""
    s = 0.0
    saved = []
    for i in range(n):
        h = np.tanh(W @ x + b)
        saved.append(h)
        s = s + np.sum(h)
    db = np.zeros_like(b)
    for h in reversed(saved):
        db += 1.0 - h * h
    return db


# ---- Zygote PR #1555 laziness example: policies case 3 ----------------------
def laziness(z, x):
    return np.sum(z @ x) / np.sum(z) / np.sum(x)


def laziness_data(seed=0):
    rng = np.random.default_rng(seed)
    return rng.uniform(0.5, 1.5, size=(200, 200)), rng.uniform(0.5, 1.5, size=(200, 50))


def laziness_hand(z, x):
    a, sz, sx = np.sum(z @ x), np.sum(z), np.sum(x)
    # f = a / (sz * sx); da/dx = column sums of z broadcast over x's columns
    da = np.broadcast_to(z.sum(axis=0)[:, None], x.shape)
    return da / (sz * sx) - a / (sz * sx * sx)


# ---- a called function offers more than the caller needs: policies case 4 ---
def layer(W, b, x):
    return np.tanh(W @ x + b)


def layer_loss(W, b, x):
    h = layer(W, b, x)
    return np.sum(h * h)


def layer_data(n=1000, seed=0):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(n, n)) / math.sqrt(n), rng.normal(size=n), rng.normal(size=n)


def layer_hand(W, b, x):
    h = np.tanh(W @ x + b)
    return 2.0 * h * (1.0 - h * h)


# ---- many uses in straight-line code: policies case 5 -----------------------
def many_uses(x):
    y = (x * 1.0 + x * 2.0 + x * 3.0 + x * 4.0 + x * 5.0 + x * 6.0 + x * 7.0
         + x * 8.0 + x * 9.0 + x * 10.0 + x * 11.0 + x * 12.0 + x * 13.0 + x * 14.0
         + x * 15.0 + x * 16.0 + x * 17.0 + x * 18.0 + x * 19.0 + x * 20.0)
    return np.sum(y)


def many_uses_data(n=1000, seed=0):
    return (np.random.default_rng(seed).normal(size=(n, n)),)


def many_uses_hand(x):
    many_uses(x)                         # the forward value, which grad computes too
    return np.full_like(x, 210.0)        # 1 + 2 + ... + 20


# ---- small regression: W2, policies case 6 ----------------------------------
def small_regression(w, x):
    return np.sum(w @ x) + np.linalg.norm(w)


def small_regression_data(seed=0):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(2, 10)), rng.normal(size=(10, 100))


def small_regression_hand(w, x):
    norm = np.linalg.norm(w)
    np.sum(w @ x) + norm                 # the forward value, which grad computes too
    return np.broadcast_to(x.sum(axis=1), w.shape) + w / norm


# ---- MLP 784-256-10, softmax cross-entropy, float32: W4 ---------------------
def mlp_loss(W1, b1, W2, b2, X, Y):
    h = np.tanh(X @ W1 + b1)
    z = h @ W2 + b2
    m = np.max(z, axis=1, keepdims=True)
    lse = m + np.log(np.sum(np.exp(z - m), axis=1, keepdims=True))
    return np.mean(lse - np.sum(Y * z, axis=1, keepdims=True))


def mlp_data(batch=256, seed=0):
    rng = np.random.default_rng(seed)
    f32 = np.float32
    W1 = (rng.normal(size=(784, 256)) / 28.0).astype(f32)
    b1 = np.zeros(256, dtype=f32)
    W2 = (rng.normal(size=(256, 10)) / 16.0).astype(f32)
    b2 = np.zeros(10, dtype=f32)
    X = rng.uniform(0.0, 1.0, size=(batch, 784)).astype(f32)
    Y = np.eye(10, dtype=f32)[rng.integers(0, 10, size=batch)]
    return W1, b1, W2, b2, X, Y


def mlp_hand(W1, b1, W2, b2, X, Y):
    h = np.tanh(X @ W1 + b1)
    z = h @ W2 + b2
    m = np.max(z, axis=1, keepdims=True)
    e = np.exp(z - m)
    s = np.sum(e, axis=1, keepdims=True)
    n = np.float32(X.shape[0])
    dz = (e / s - Y) / n
    dW2 = h.T @ dz
    db2 = dz.sum(axis=0)
    dh = dz @ W2.T
    da = dh * (1 - h * h)
    return X.T @ da, da.sum(axis=0), dW2, db2


# ---- scalar loop, 10,000 steps: W5 ------------------------------------------
def scalar_loop(x, n):
    for i in range(n):
        x = x * 0.999 + 0.001 * math.sin(x)
    return x


def scalar_loop_data(n=10_000):
    return 0.7, n


def scalar_loop_hand(x, n):
    saved = []
    for i in range(n):
        saved.append(x)
        x = x * 0.999 + 0.001 * math.sin(x)
    g = 1.0
    for xi in reversed(saved):
        g = g * (0.999 + 0.001 * math.cos(xi))
    return g


# ---- RNN, hidden 64, input 32, 100 steps, float64: W6 -----------------------
def rnn_loss(Wh, Wx, b, xs, h0):
    h = h0
    for x in xs:
        h = np.tanh(Wh @ h + Wx @ x + b)
    return np.sum(h * h)


def rnn_data(steps=100, hidden=64, inputs=32, seed=0):
    rng = np.random.default_rng(seed)
    return (rng.normal(size=(hidden, hidden)) / math.sqrt(hidden),
            rng.normal(size=(hidden, inputs)) / math.sqrt(inputs),
            rng.normal(size=hidden) * 0.1, rng.normal(size=(steps, inputs)),
            np.zeros(hidden))


def rnn_hand(Wh, Wx, b, xs, h0):
    h = h0
    hs = [h]
    for x in xs:
        h = np.tanh(Wh @ h + Wx @ x + b)
        hs.append(h)
    dWh, dWx, db = np.zeros_like(Wh), np.zeros_like(Wx), np.zeros_like(b)
    dh = 2.0 * h
    for t in range(len(xs) - 1, -1, -1):
        h = hs[t + 1]
        da = dh * (1.0 - h * h)
        dWh += np.outer(da, hs[t])
        dWx += np.outer(da, xs[t])
        db += da
        dh = Wh.T @ da
    return dWh, dWx, db
