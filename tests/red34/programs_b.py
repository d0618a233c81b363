"""Session 34 red team (red) programs, batch 2: mixed partials, stopped values, records, methods (tests/red34/programs.py)."""
import numpy as np

from tests.optional_scipy import scipy_module
from transform import stop_gradient

special = scipy_module("special")
linalg = scipy_module("linalg")
stats = scipy_module("stats")


# ---- batch 2: mixed partials, stopped values, calls of grad, records -------------------
def quad_form(x, A):
    return 0.5 * x @ A @ x + np.sum(np.sin(x))


def inplace_loop(x):
    y = np.zeros_like(x)
    for i in range(len(x)):
        y[i] += x[i] ** 2
        if i > 0:
            y[i] = y[i] + x[i - 1] * x[i]
    return np.sum(y ** 2)


def pow_loss(x, p):
    return np.sum(np.abs(x) ** p) ** (1.0 / p)


def norm_loss(x):
    return np.linalg.norm(x) + 0.5 * np.linalg.norm(x) ** 2


def stopped_square(x):
    return np.sum(x ** 2 * np.exp(-x))


def relu_net(w, X):
    h = np.maximum(X @ w, 0.0)
    return np.sum(h ** 2) + np.sum(np.minimum(X @ w, 1.0))


def sort_loss(x):
    s = np.sort(x)
    return np.sum(s * np.arange(1, len(x) + 1) ** 2 * s)


def cumsum_prod(x):
    c = np.cumsum(x)
    return np.sum(c ** 2) + np.prod(x + 2.0)


def einsum_loss(W, x):
    h = np.einsum("ij,j->i", W, x)
    return np.einsum("i,i->", h, h) + np.sum(np.tanh(h))


def inv_det(A):
    return np.trace(np.linalg.inv(A)) + np.log(np.abs(np.linalg.det(A)))


def special_mix(x):
    return np.sum(special.xlogy(x, x) + special.expit(x) + special.log_ndtr(x) + special.gammaln(x + 1))


def digamma_loss(a):
    return np.sum(special.digamma(a) * a)


def comprehension_loss(x):
    terms = [np.sin(v) * (i + 1) for i, v in enumerate(x)]
    return sum(terms) + np.mean([v ** 2 for v in x])


def while_break(x):
    total = 0.0
    k = 0
    while True:
        total = total + np.cos(x * (k + 1))
        k += 1
        if k >= 4:
            break
    return total


def gather_repeat(x):
    idx = np.array([0, 2, 2, 1, 0])
    return np.sum(x[idx] ** 3)


def stack_concat(x):
    a = np.concatenate([x, x ** 2])
    b = np.stack([x, np.cos(x)], axis=1)
    return np.sum(a ** 2) + np.sum(np.outer(b[:, 0], b[:, 1]))


def tril_loss(L):
    T = np.tril(L)
    return np.sum((T @ T.T) ** 2)


def glm_nll(beta, log_sigma, X, y):
    r = y - X @ beta
    s = np.exp(log_sigma)
    return np.sum(0.5 * (r / s) ** 2) + len(y) * log_sigma


class Model:
    def __init__(self, X, y):
        self.X = X
        self.y = y

    def loss(self, w):
        z = self.X @ w
        return np.sum(np.logaddexp(0.0, z) - self.y * z)


def newton_step_value(x, a):
    g = x ** 3 - a
    h = 3 * x ** 2
    x1 = x - g / h
    return x1 ** 2


def f32_loss(w, x):
    return np.sum(np.tanh(x @ w) ** 2)


def float_default(x, scale=2.0, *, shift=0.5):
    return np.sum(np.exp(-scale * (x - shift) ** 2))


def sg_loss(x):
    return np.sum(x ** 2 * stop_gradient(x))


def where_div(x):
    safe = np.where(x > 0, x, 1.0)
    return np.sum(np.where(x > 0, np.log(safe) * x, x ** 2))


def tuple_helper(x):
    def stats(v):
        return np.mean(v), np.std(v)
    m, s = stats(x)
    return (m - 1.0) ** 2 + s ** 2 + m * s


def fstring_print(w, X):
    loss = np.sum((X @ w) ** 2)
    for it in range(2):
        loss = loss + 0.1 * np.sum(w ** 4)
        print(f"iter {it}: loss={loss:.3f}")
    return loss


def abs_max_loss(x):
    return max(abs(v) for v in x) + np.max(np.abs(x) ** 2)


def logdet_chol(L):
    A = L @ L.T + np.eye(L.shape[0])
    C = np.linalg.cholesky(A)
    return 2 * np.sum(np.log(np.diag(C)))


def solve_loss(b, A):
    x = linalg.solve(A, b)
    return x @ x


def sg_fixed(x, c):
    """sg_loss with the stopped value held as the constant c (its reference)."""
    return np.sum(x ** 2 * c)
