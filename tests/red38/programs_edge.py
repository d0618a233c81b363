"""red38, third batch: dataclass arguments with __post_init__ (differentiated as a
tree), outer products differentiated in the data, epochs of manual backprop, slices of
varying length, custom rules called with keywords."""
from dataclasses import dataclass

import numpy as np

from transform import rrule


@dataclass
class Params:
    w: np.ndarray
    log_s: float

    def __post_init__(self):
        self.s = np.exp(self.log_s)


def params_arg_loss(p, X, y):
    r = (X @ p.w - y) / p.s
    return 0.5 * np.sum(r ** 2) + X.shape[0] * p.log_s


def params_arg_fields_only(p, X, y):
    """the same, reading the fields only (`s` unread)."""
    r = (X @ p.w - y) / np.exp(p.log_s)
    return 0.5 * np.sum(r ** 2) + X.shape[0] * p.log_s


def outer_in_data(X, W):
    acc = np.zeros_like(W)
    for i in range(X.shape[0]):
        acc += np.outer(np.tanh(W @ X[i]), X[i])
    return np.sum(acc ** 2)


def epochs_manual_backprop(W, X, Y):
    for epoch in range(3):
        dW = np.zeros_like(W)
        for i in range(X.shape[0]):
            dW += np.outer(np.tanh(W @ X[i]) - Y[i], X[i])
        W = W - 0.1 * dW
    return np.sum((np.tanh(X @ W.T) - Y) ** 2)


def growing_slices(x):
    out = np.zeros_like(x)
    for k in range(1, x.shape[0] + 1):
        out[:k] += np.sin(x[k - 1]) * x[:k]
    return np.sum(out ** 2)


def stop_on_value(x):
    """a loop whose trip count depends on the differentiated value."""
    acc = np.zeros(2)
    for i in range(10):
        acc = acc + np.array([np.sin(x * i), np.cos(x * i)])
        if np.sum(acc) > 2.5:
            break
    return acc @ acc


def outer_two_accumulators(W, X):
    A = np.zeros_like(W)
    B = np.zeros_like(W)
    for i in range(X.shape[0]):
        h = W @ X[i]
        A += np.outer(h, X[i])
        B += np.outer(h ** 2, X[i] ** 2)
    return np.sum(A * B)


def leaky(x, alpha=0.1):
    return np.where(x > 0, x, alpha * x) * x


@rrule(leaky, jvp=lambda t, x, alpha=0.1: 2 * np.where(x > 0, x, alpha * x) * t[0])
def _leaky_rule(x, alpha=0.1):
    d = 2 * np.where(x > 0, x, alpha * x)
    return leaky(x, alpha), lambda g: (g * d, None)


def leaky_keyword(w, X):
    return np.sum(leaky(X @ w, alpha=0.2))


def leaky_default(w, X):
    return np.sum(leaky(X @ w))

# fourth batch: a row view changed after its outer product, outer products of the
# differentiated rows, an accumulator written after its last read, `*=` of outer
# products, stepped and reversed ranges


def alias_rows(W, X):
    X = X.copy()
    acc = np.zeros_like(W)
    for i in range(X.shape[0]):
        x = X[i]
        acc += np.outer(W @ x, x)
        X[i] *= 2.0          # the row view x changes after the product
        acc += np.outer(W @ x, x)
    return np.sum(acc ** 2)

def outer_of_W_row(W, X):
    acc = np.zeros((W.shape[1], W.shape[1]))
    for i in range(W.shape[0]):
        acc += np.outer(W[i], W[i]) * X[i, 0]
        W = W * 0.9
    return np.sum(acc * acc)

def acc_returned_then_modified(W, X):
    acc = np.zeros_like(W)
    for i in range(X.shape[0]):
        acc += np.outer(np.tanh(W @ X[i]), X[i])
    out = np.sum(acc ** 2)
    acc[0] = 0.0
    return out + np.sum(acc)

def outer_multiply_acc(W, X):
    acc = np.ones_like(W)
    for i in range(X.shape[0]):
        acc *= 1 + 0.1 * np.outer(np.tanh(W @ X[i]), X[i])
    return np.sum(acc)

def outer_stride(W, X):
    acc = np.zeros_like(W)
    for i in range(0, X.shape[0], 2):
        acc += np.outer(W @ X[i], X[i + 1])
    return np.sum(np.sin(acc))

def outer_reversed(W, X):
    acc = np.zeros_like(W)
    for i in reversed(range(X.shape[0])):
        acc = 0.5 * acc + np.outer(W @ X[i], X[i])
    return np.sum(acc ** 2)
