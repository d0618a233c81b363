"""red39: parameters as records (a NamedTuple, a dataclass, a dict) differentiated
whole for Hessians and Hessian-vector products, and float32 models."""
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
from scipy.special import expit


class MLPParams(NamedTuple):
    W1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray


def mlp_record(params, X, y):
    h = np.tanh(X @ params.W1 + params.b1)
    pred = h @ params.w2
    return 0.5 * np.mean((pred - y) ** 2)


@dataclass
class PairPotential:
    eps: float
    r0: float


def lj_record(pot, r):
    """a Lennard-Jones-like energy of fixed distances as a function of its parameters."""
    s = (pot.r0 / r) ** 6
    return np.sum(4 * pot.eps * (s * s - s))


def logreg_dict(params, X, y):
    z = X @ params["w"] + params["b"]
    return np.sum(np.logaddexp(0.0, z) - y * z) + 0.5 * params["w"] @ params["w"]


def logreg32(w, X, y):
    """float32 data and weights: the loss stays float32."""
    p = expit(X @ w)
    eps = np.float32(1e-6)
    return -np.sum(y * np.log(p + eps) + (1 - y) * np.log(1 - p + eps))


def mlp32(theta, X):
    W = theta.reshape(3, 2)
    h = np.tanh(X @ W)
    return np.sum(h ** 2) / np.float32(len(X))
