"""Session 32 (fix2): loops unpacking several names from a sequence, for forward mode
(tests/forward/test_fix2.py)."""
import numpy as np


def mlp(params, x):
    h = x
    for W, b in params["layers"]:
        h = np.tanh(h @ W + b)
    return np.sum(h ** 2)


def rows(X, w):
    total = 0.0
    for a, b in X:
        total = total + w * np.sin(a) * b
    return total


def named(pairs, x):
    for name, w in pairs:
        x = x * w if name == "scale" else x + w
    return x


def three(triples, x):
    for a, b, c in triples:
        x = a * x ** 2 + b * x + c
    return x


def nested_target(seq, x):
    for (a, b), c in seq:
        x = a * x + b * c
    return x


def enumerate_pairs(pairs, x):
    for i, (a, b) in enumerate(pairs):
        x = a * x + b * i
    return x


def zip_strict(xs, ys, x):
    for a, b in zip(xs, ys, strict=True):
        x = a * x + b
    return x



def calls_einsum(a, b):
    return np.sum(np.einsum("ij,jk->ik", a, b))
