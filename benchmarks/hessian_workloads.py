"""The functions benchmarks/hessian.py times: scalar losses of one parameter vector, their
data, and hand-written NumPy gradients and Hessians (float64 throughout).

    logreg     logistic regression loss, L2-regularised, wrt w (100 or 300 parameters)
    mlp        a 8-16-... tanh MLP's mean squared error wrt its parameters packed in one
               vector (200 parameters), unpacked inside the loss by slicing and reshape
    energy     a pair energy of 50 particles in 3-D (150 positions): a soft repulsion
               sum_{i<j} exp(-|x_i - x_j|^2)
"""
import numpy as np


# ---- logistic regression -----------------------------------------------------------
def logreg_loss(w, X, y, lam):
    z = X @ w
    return np.mean(np.logaddexp(0.0, -y * z)) + 0.5 * lam * np.sum(w * w)


def logreg_data(n=100, m=500, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(m, n)) / np.sqrt(n)
    y = np.sign(rng.normal(size=m))
    return rng.normal(size=n), X, y, 0.1


def logreg_hand_grad(w, X, y, lam):
    s = 1.0 / (1.0 + np.exp(y * (X @ w)))          # sigmoid(-y z)
    return -(X.T @ (y * s)) / X.shape[0] + lam * w


def logreg_hand_hessian(w, X, y, lam):
    p = 1.0 / (1.0 + np.exp(-(X @ w)))
    d = p * (1 - p) / X.shape[0]
    return (X.T * d) @ X + lam * np.eye(len(w))


# ---- MLP, parameters packed in one vector ------------------------------------------
MLP_IN, MLP_HIDDEN = 8, 16      # 8*16 + 16 + 16*3 + 3 = 195; padded to 200 below
MLP_OUT = 3


def mlp_loss(theta, X, Y):
    a = MLP_IN * MLP_HIDDEN
    b = a + MLP_HIDDEN
    c = b + MLP_HIDDEN * MLP_OUT
    W1 = theta[:a].reshape(MLP_IN, MLP_HIDDEN)
    b1 = theta[a:b]
    W2 = theta[b:c].reshape(MLP_HIDDEN, MLP_OUT)
    b2 = theta[c:c + MLP_OUT]
    h = np.tanh(X @ W1 + b1)
    r = h @ W2 + b2 - Y
    return np.mean(r * r) + 1e-3 * np.sum(theta * theta)


def mlp_data(n=200, batch=64, seed=0):
    rng = np.random.default_rng(seed)
    theta = rng.normal(size=n) * 0.3
    X = rng.normal(size=(batch, MLP_IN))
    Y = rng.normal(size=(batch, MLP_OUT))
    return theta, X, Y


# ---- pair energy of particles -------------------------------------------------------
def energy(x, mask):
    d = x[:, None, :] - x[None, :, :]
    r2 = np.sum(d * d, axis=-1)
    return 0.5 * np.sum(mask * np.exp(-r2))


def energy_data(particles=50, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(particles, 3)) * 1.5
    mask = 1.0 - np.eye(particles)
    return x, mask


def energy_hand_grad(x, mask):
    d = x[:, None, :] - x[None, :, :]
    e = mask * np.exp(-np.sum(d * d, axis=-1))
    return -2.0 * np.sum(e[:, :, None] * d, axis=1)


def energy_hand_hessian(x, mask):
    """d2E/dx_ia dx_jb: pair (i, j) blocks -e (2 I - 4 d d^T)... written out."""
    n, k = x.shape
    d = x[:, None, :] - x[None, :, :]
    e = mask * np.exp(-np.sum(d * d, axis=-1))
    # block(i, j) for i != j: 2 e_ij (I - 2 d_ij d_ij^T); diagonal: minus the row's sum
    blocks = 2.0 * e[:, :, None, None] * (np.eye(k) - 2.0 * d[:, :, :, None] * d[:, :, None, :])
    H = np.zeros((n, k, n, k))
    H += blocks.transpose(0, 2, 1, 3)
    diag = -np.sum(blocks, axis=1)
    H[np.arange(n), :, np.arange(n), :] = diag
    return H
