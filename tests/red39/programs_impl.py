"""red39: implicit sensitivities (ridge by solve, fixed points, power iteration, a
Taylor matrix exponential) and the shapes users hand to thunkgrad: bound methods,
lambdas and functools.partial objects as the function, keyword-only data, star
unpacking, a grad called inside the differentiated function."""
from functools import partial

import numpy as np
from scipy.linalg import solve

from transform import grad


def ridge_val(lam, X, y, Xv, yv):
    """the validation loss of ridge regression as a function of lam (a float)."""
    A = X.T @ X + lam * np.eye(X.shape[1])
    w = solve(A, X.T @ y)
    r = Xv @ w - yv
    return r @ r


def ridge_targets(y, X, Xv, yv, lam=0.5):
    """the same through the training targets (an array)."""
    w = np.linalg.solve(X.T @ X + lam * np.eye(X.shape[1]), X.T @ y)
    return np.sum((Xv @ w - yv) ** 2)


def power_rayleigh(v, iters=25):
    """the top eigenvalue of a symmetric matrix built from v, by power iteration."""
    A = np.zeros((3, 3))
    A[np.triu_indices(3)] = v
    A = A + A.T - np.diag(np.diag(A))
    x = np.ones(3) / np.sqrt(3.0)
    for _ in range(iters):
        x = A @ x
        x = x / np.linalg.norm(x)
    return x @ A @ x


def cos_fixed_point(a):
    """x = cos(a x) by fixed-point iteration in a while loop with a tolerance."""
    x, diff, n = 0.5, 1.0, 0
    while diff > 1e-13 and n < 200:
        new = np.cos(a * x)
        diff = abs(new - x)
        x = new
        n += 1
    return x


def expm_taylor(a):
    """exp(A) for a 2x2 generator by scaling and squaring a Taylor series that stops
    when the term is negligible (break)."""
    A = a.reshape(2, 2) / 4.0
    E = np.eye(2)
    term = np.eye(2)
    for k in range(1, 30):
        term = term @ A / k
        E = E + term
        if np.max(np.abs(term)) < 1e-17:
            break
    for _ in range(2):
        E = E @ E
    return np.sum(E * np.array([[1.0, 0.5], [-0.3, 2.0]]))


def moment_residuals(theta, data):
    """method-of-moments residuals of a normal model (a vector output)."""
    mu, log_s = theta
    s2 = np.exp(2 * log_s)
    m1 = np.mean(data) - mu
    m2 = np.mean(data ** 2) - (mu ** 2 + s2)
    m3 = np.mean(data ** 3) - (mu ** 3 + 3 * mu * s2)
    return np.array([m1, m2, m3])


class Objective:
    """a small class whose bound method is handed to thunkgrad."""

    def __init__(self, X, y, l2=0.1):
        self.X = X
        self.y = y
        self.l2 = l2

    def value(self, w):
        r = np.tanh(self.X @ w) - self.y
        return 0.5 * r @ r + 0.5 * self.l2 * w @ w


def _quartic_loss(w, X, y, power=4):
    return np.sum((X @ w - y) ** power) / len(y)


def quartic_partial_fn(X, y):
    """functools.partial with the data bound by keyword: the function handed over."""
    return partial(_quartic_loss, X=X, y=y)


def lambda_closure_fn(X):
    """a lambda closing over data."""
    return lambda w: np.sum(np.exp(-(X @ w) ** 2)) + np.sum(w ** 4)


def keyword_only_data(w, *, X=np.array([[1.0, 0.5], [0.2, -0.4], [-1.1, 0.3]]),
                      y=np.array([0.3, -0.2, 0.8])):
    """data passed as keyword-only defaults (left out by the caller)."""
    z = X @ w
    return np.sum(np.logaddexp(0.0, z) - y * z) + 0.5 * np.sum(w ** 2)


def star_unpack(theta, x):
    """`a, *rest = theta` then a polynomial in x with the rest as coefficients."""
    a, *rest = theta
    poly = 0.0
    for k, c in enumerate(rest):
        poly = poly + c * x ** k
    return np.sum((np.exp(a) * poly - np.sin(x)) ** 2)


def _morse_energy(x):
    d = x[1:] - x[:-1]
    return np.sum((1 - np.exp(-1.5 * (d - 1.0))) ** 2)


def force_norm(x):
    """the squared force norm, forces = -grad(energy) by thunkgrad inside."""
    F = -grad(_morse_energy)(x)
    return np.sum(F ** 2)


def inplace_rows(theta, X):
    """scale a copy's column and shift its first row in place, then a loss."""
    Z = X.copy()
    Z[:, 0] *= theta[0]
    Z[0] += theta[1:]
    Z[1:, 1] = Z[1:, 1] * np.exp(theta[1])
    return np.sum(np.tanh(Z) ** 2)


def transpose_views(w, X):
    """x.T, reshape and a strided view."""
    W = w.reshape(2, 3)
    G = W @ X.T
    flat = G.T.reshape(-1)
    return np.sum(flat[::2] ** 2) - np.sum(flat[1::2] * flat[::2][:len(flat[1::2])])


def _stats(x):
    m = np.mean(x)
    v = np.mean((x - m) ** 2)
    return m, v, np.sqrt(v)


def tuple_stats_loss(x):
    m, v, s = _stats(x)
    z = (x - m) / s
    return np.sum(z ** 4) / len(x) + v * m


def newton_min_inner(c):
    """minimise a 1D potential in c by Newton with derivatives by hand, a float c;
    returns the minimum value (an envelope: d/dc is the partial derivative)."""
    x = 0.0
    for _ in range(30):
        g = 4 * x ** 3 + 2 * x - c
        h = 12 * x ** 2 + 2
        x = x - g / h
        if abs(g) < 1e-15:
            break
    return x ** 4 + x ** 2 - c * x
