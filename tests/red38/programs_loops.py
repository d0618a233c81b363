"""red38: loops the typed optimiser passes rewrite (BatchProducts, DropDeadSaves,
ReuseCutBuffers): outer-product accumulations `dW += np.outer(g, x)`, loops with break,
continue and while, slices of arrays accumulated in loops."""
import numpy as np


def hebbian_outer(W, X):
    """a Hebbian-style accumulation of outer products, then a loss of the result."""
    acc = np.zeros_like(W)
    for i in range(X.shape[0]):
        h = np.tanh(W @ X[i])
        acc += np.outer(h, X[i])
    return np.sum(acc ** 2) + np.sum(W * acc)


def manual_backprop_outer(W, X, y):
    """a hand-written gradient step of a linear layer, differentiated in W (the loss
    after one step)."""
    dW = np.zeros_like(W)
    for i in range(X.shape[0]):
        err = W @ X[i] - y[i]
        dW += np.outer(err, X[i])
    W2 = W - 0.1 * dW / X.shape[0]
    r = X @ W2.T - y
    return 0.5 * np.sum(r ** 2)


def rnn_outer_grad_norm(W, xs):
    h = np.zeros(W.shape[0])
    G = np.zeros_like(W)
    for t in range(xs.shape[0]):
        h = np.tanh(W @ h + xs[t])
        G = G + np.outer(h, xs[t])
    return np.sum(G * G) + np.sum(h)


def outer_break(W, X):
    acc = np.zeros_like(W)
    for i in range(X.shape[0]):
        acc += np.outer(np.sin(W @ X[i]), X[i])
        if i >= 2:
            break
    return np.sum(acc * W)


def outer_continue(W, X):
    acc = np.zeros_like(W)
    for i in range(X.shape[0]):
        if X[i, 0] < 0.0:
            continue
        acc += np.outer(W @ X[i], X[i])
    return np.sum(np.tanh(acc))


def outer_while(W, X):
    acc = np.zeros_like(W)
    i = 0
    while i < X.shape[0]:
        acc += np.outer(W @ X[i], np.cos(X[i]))
        i += 1
    return np.sum(acc ** 2)


def sgd_early_stop(w, X, y):
    """SGD with a data-dependent stop (loss fixed by the stopping step)."""
    for epoch in range(20):
        r = X @ w - y
        loss = 0.5 * np.mean(r ** 2)
        if loss < 0.05:
            break
        w = w - 0.3 * X.T @ r / X.shape[0]
    return np.sum(w ** 2) + loss


def while_decay(x):
    s = 0.0
    k = 0
    v = x
    while k < 5:
        v = v * 0.8 + np.sin(v)
        s = s + np.sum(v ** 2)
        k += 1
    return s


def slice_accumulate(x):
    """prefix sums written into slices of a buffer."""
    out = np.zeros(x.shape[0])
    for i in range(1, x.shape[0]):
        out[i:] += x[i - 1] * x[i]
    return np.sum(out ** 2)


def window_sums(x):
    acc = np.zeros(3)
    for i in range(x.shape[0] - 2):
        acc += x[i:i + 3] ** 2
    return np.sum(np.sqrt(acc + 1.0))


def slice_rows_update(A):
    B = np.zeros_like(A)
    for i in range(A.shape[0]):
        B[i, :] = A[i, :] * np.sum(A[:i + 1, 0])
    return np.sum(B ** 2)


def heat_explicit(u0):
    """explicit heat equation: interior slices updated from neighbours."""
    u = u0.copy()
    for _ in range(6):
        u[1:-1] = u[1:-1] + 0.2 * (u[2:] - 2 * u[1:-1] + u[:-2])
    return np.sum(u ** 2) + u[2]


def dead_saves_chain(x):
    """temporaries computed in a loop but only the last used (saves the optimiser may
    drop)."""
    s = 0.0
    for i in range(4):
        a = np.exp(x * 0.1 * i)
        b = np.sin(a)
        c = a * b
        s = s + np.sum(c)
    return s


def momentum_outer(W, X):
    V = np.zeros_like(W)
    for i in range(X.shape[0]):
        g = np.outer(np.tanh(W @ X[i]), X[i])
        V = 0.9 * V + g
        W = W - 0.05 * V
    return np.sum(W ** 2)


def nested_outer_rows(W, X):
    acc = np.zeros_like(W)
    for i in range(X.shape[0]):
        for j in range(W.shape[0]):
            acc[j] += W[j] * X[i] * X[i, 0]
    return np.sum(acc ** 2)
