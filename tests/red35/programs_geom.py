"""Session 35 red team (red35) programs, batch 4: geometry and library breadth users
reach for: dihedral angles (cross, arctan2), torques, volumes, sliding windows, pooling,
top-k, einsum/tensordot, tiles and repeats, special functions at second order."""
import numpy as np

from tests.optional_scipy import scipy_module

special = scipy_module("special")


def dihedral(x):
    p = x.reshape(4, 3)
    b0, b1, b2 = p[0] - p[1], p[2] - p[1], p[3] - p[2]
    b1n = b1 / np.linalg.norm(b1)
    v = b0 - np.dot(b0, b1n) * b1n
    w = b2 - np.dot(b2, b1n) * b1n
    xx = np.dot(v, w)
    yy = np.dot(np.cross(b1n, v), w)
    phi = np.arctan2(yy, xx)
    return 2.0 * (1 + np.cos(3 * phi - 0.3))


def bond_angle(x):
    p = x.reshape(3, 3)
    u, v = p[0] - p[1], p[2] - p[1]
    c = np.dot(u, v) / (np.linalg.norm(u) * np.linalg.norm(v))
    theta = np.arccos(np.clip(c, -1.0, 1.0))
    return 0.5 * 40.0 * (theta - 1.9) ** 2


def torque(r, F):
    return np.cross(r, F) + 0.1 * np.cross(r, np.cross(r, F))


def tet_volume(x):
    p = x.reshape(4, 3)
    M = np.stack([p[1] - p[0], p[2] - p[0], p[3] - p[0]])
    return (np.linalg.det(M) / 6.0 - 0.2) ** 2


def polar_energy(x):
    r = np.hypot(x[0::2], x[1::2])
    th = np.arctan2(x[1::2], x[0::2])
    return np.sum((r - 1.0) ** 2 + 0.1 * np.sin(2 * th))


def conv1d_windows(w, x):
    win = np.lib.stride_tricks.sliding_window_view(x, 3)
    y = win @ w
    return np.sum(np.tanh(y) ** 2)


def conv1d_loop(w, x):
    out = []
    for i in range(len(x) - 2):
        out.append(np.dot(w, x[i:i + 3]))
    return np.array(out)


def maxpool(x):
    return x.reshape(-1, 2).max(axis=1) * np.array([1.0, 2.0, 3.0])


def topk_mean(x):
    order = np.argsort(x)[::-1]
    return np.mean(x[order[:2]] ** 2)


def take_along(x):
    A = x.reshape(3, 2)
    idx = np.argmax(A, axis=1)[:, None]
    return np.sum(np.take_along_axis(A, idx, axis=1) ** 3)


def einsum_bilinear(W, x, y):
    return np.einsum("i,ij,j->", x, W, y) + np.tensordot(W, W, axes=2)


def tile_repeat(x):
    return np.sum(np.tile(x, 2) * np.repeat(x, 2) * np.arange(2.0 * len(x)))


def meshgrid_field(c):
    X, Y = np.meshgrid(np.linspace(-1, 1, 3), np.linspace(-1, 1, 4))
    return np.sum(np.exp(-((X - c[0]) ** 2 + (Y - c[1]) ** 2)))


def special_second(x):
    return np.sum(special.gammaln(x) + special.xlogy(x, x) + special.erf(x) * special.expit(x))


def log_softmax_nll(z):
    return -special.log_softmax(z)[1] + np.sum(special.softmax(z) ** 2)


def digamma_mix(a):
    return special.digamma(a) * a + special.polygamma(1, a)


def logit_loss(p):
    return np.sum(special.logit(p) ** 2 + special.ndtri(p) * p)


def qr_loss(A):
    Q, R = np.linalg.qr(A.reshape(3, 2))
    return np.sum(np.abs(np.diag(R))) + np.sum(Q[:, 0] * np.arange(3.0))


def triu_energy(x):
    D = np.abs(x[:, None] - x[None, :]) + 0.5
    return np.sum(np.triu(1.0 / D, 1))


def any_all_branch(x):
    if np.any(x > 1.0) and not np.all(x > 0):
        return np.sum(x ** 2)
    return np.sum(np.sin(x))


def reversed_range(x):
    acc = 0.0
    for i in range(len(x) - 1, -1, -1):
        acc = np.tanh(acc + x[i]) * (i + 1)
    return acc


def max_key(xs):
    pairs = [(xs[i], xs[i + 1]) for i in range(0, len(xs), 2)]
    best = max(pairs, key=lambda p: p[0] + p[1])
    return best[0] * best[1] + sum(a * b for a, b in pairs)


def try_finally(x):
    total = 0.0
    try:
        total = np.sum(x ** 2)
    finally:
        total = total + 1.0
    return total * np.sum(x)


linalg = scipy_module("linalg")


def tri_solves(A, b):
    """solve_triangular every way users call it: lower and upper, trans, unit diagonal."""
    L = np.tril(A) + 3.0 * np.eye(3)
    U = L.T
    x1 = linalg.solve_triangular(L, b, lower=True)
    x2 = linalg.solve_triangular(U, b, trans="T")
    x3 = linalg.solve_triangular(L, np.outer(b, b), lower=True, unit_diagonal=True, trans=1)
    return np.sum(x1 ** 2) + x2 @ x1 + np.sum(np.sin(x3))
