"""Issue 19's scientific workloads written for PyTorch eager (benchmarks/scientific.py
times them): the primal's Python loops on CPU tensors of the inputs' dtypes (float64,
float32 for logistic regression), `loss.backward()` on leaf tensors. The helper variants
call their helper; `un = u.clone(); un[1:-1] = ...` is the copy-and-write form (autograd
records the in-place write on the clone). Importing this module imports PyTorch.
"""
import math

import numpy as np
import torch


def heat(u, k, steps):
    for _ in range(steps):
        lap = u[2:] - 2 * u[1:-1] + u[:-2]
        u = torch.cat([u[:1], u[1:-1] + k * lap, u[-1:]])
    return torch.sum(u ** 2)


def heat_copy(u, k, steps):
    for _ in range(steps):
        un = u.clone()
        un[1:-1] = u[1:-1] + k * (u[2:] - 2 * u[1:-1] + u[:-2])
        u = un
    return torch.sum(u ** 2)


def gp_nll(log_ell, log_sf, log_sn, X, y):
    sq = torch.sum(X ** 2, dim=1)
    d2 = sq[:, None] + sq[None, :] - 2 * X @ X.T
    K = torch.exp(2 * log_sf) * torch.exp(-0.5 * d2 / torch.exp(2 * log_ell))
    K = K + torch.exp(2 * log_sn) * torch.eye(X.shape[0], dtype=X.dtype)
    L = torch.linalg.cholesky(K)
    a = torch.linalg.solve(L, y)
    return 0.5 * (a @ a) + torch.sum(torch.log(torch.diag(L))) + 0.5 * len(y) * math.log(2 * math.pi)


def cell(x, h, c, Wx, Wh, b):
    H = h.shape[0]
    z = Wx @ x + Wh @ h + b
    c = torch.sigmoid(z[H:2 * H]) * c + torch.sigmoid(z[:H]) * torch.tanh(z[3 * H:])
    return torch.sigmoid(z[2 * H:3 * H]) * torch.tanh(c), c


def lstm_loss(Wx1, Wh1, b1, Wx2, Wh2, b2, xs):
    H = b1.shape[0] // 4
    h1 = c1 = h2 = c2 = torch.zeros(H, dtype=b1.dtype)
    for x in xs:
        z = Wx1 @ x + Wh1 @ h1 + b1
        c1 = torch.sigmoid(z[H:2 * H]) * c1 + torch.sigmoid(z[:H]) * torch.tanh(z[3 * H:])
        h1 = torch.sigmoid(z[2 * H:3 * H]) * torch.tanh(c1)
        z = Wx2 @ h1 + Wh2 @ h2 + b2
        c2 = torch.sigmoid(z[H:2 * H]) * c2 + torch.sigmoid(z[:H]) * torch.tanh(z[3 * H:])
        h2 = torch.sigmoid(z[2 * H:3 * H]) * torch.tanh(c2)
    return torch.sum(h2 ** 2)


def lstm_cell_loss(Wx1, Wh1, b1, Wx2, Wh2, b2, xs):
    H = b1.shape[0] // 4
    h1 = c1 = h2 = c2 = torch.zeros(H, dtype=b1.dtype)
    for x in xs:
        h1, c1 = cell(x, h1, c1, Wx1, Wh1, b1)
        h2, c2 = cell(h1, h2, c2, Wx2, Wh2, b2)
    return torch.sum(h2 ** 2)


def nbody(q, v, m, dt, steps):
    eps2 = 1e-2
    for _ in range(steps):
        d = q[:, None, :] - q[None, :, :]
        inv3 = (torch.sum(d ** 2, dim=2) + eps2) ** -1.5
        v = v - 0.5 * dt * torch.sum(m[None, :, None] * d * inv3[:, :, None], dim=1)
        q = q + dt * v
        d = q[:, None, :] - q[None, :, :]
        inv3 = (torch.sum(d ** 2, dim=2) + eps2) ** -1.5
        v = v - 0.5 * dt * torch.sum(m[None, :, None] * d * inv3[:, :, None], dim=1)
    return torch.sum(q ** 2) + torch.sum(v ** 2)


def logistic(w, b, X, y, lam):
    z = X @ w + b
    return torch.mean(torch.logaddexp(torch.zeros((), dtype=z.dtype), -y * z)) \
        + 0.5 * lam * (w @ w)


def rk4(y, W, h, steps):
    for _ in range(steps):
        k1 = torch.tanh(W @ y)
        k2 = torch.tanh(W @ (y + 0.5 * h * k1))
        k3 = torch.tanh(W @ (y + 0.5 * h * k2))
        k4 = torch.tanh(W @ (y + h * k3))
        y = y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
    return torch.sum(y ** 2)


def rhs(y, W):
    return torch.tanh(W @ y)


def rk4_rhs(y, W, h, steps):
    for _ in range(steps):
        k1 = rhs(y, W)
        k2 = rhs(y + 0.5 * h * k1, W)
        k3 = rhs(y + 0.5 * h * k2, W)
        k4 = rhs(y + h * k3, W)
        y = y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
    return torch.sum(y ** 2)


PROGRAMS = {"S1": heat, "S1c": heat_copy, "S2": gp_nll, "S3": lstm_loss,
            "S3c": lstm_cell_loss, "S4": nbody, "S5": logistic, "S6": rk4, "S6c": rk4_rhs}


def _tensor(a, leaf):
    """A tensor of a NumPy array or number (its dtype kept; Python floats as float64);
    a leaf that records gradients if `leaf`."""
    if isinstance(a, list):
        return [_tensor(x, False) for x in a]
    if isinstance(a, (int, float)) and not leaf:
        return a
    t = torch.tensor(np.asarray(a, dtype=np.float64 if isinstance(a, float) else None))
    return t.requires_grad_(True) if leaf else t


def gradient(key, args, argnums):
    """A zero-argument callable: loss.backward() once, the leaves' gradients as NumPy."""
    tensors = [_tensor(a, i in argnums) for i, a in enumerate(args)]
    leaves = [tensors[i] for i in argnums]
    loss_fn = PROGRAMS[key]

    def call():
        for leaf in leaves:
            leaf.grad = None
        loss_fn(*tensors).backward()
        return tuple(leaf.grad.numpy() for leaf in leaves)
    return call
