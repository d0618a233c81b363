"""red36: optimisation inside the differentiated function (line searches, Newton steps,
fixed-point iterations, projections) and Python habits (*args, **kwargs, partial,
sorted, map, closures, in-place updates on copies)."""
import functools

import numpy as np


def backtracking_quadratic(x0):
    """Armijo backtracking on a fixed quadratic, from x0: a while with a data-dependent
    number of halvings (piecewise smooth in x0 away from the switch)."""
    A = np.array([[3.0, 0.5], [0.5, 1.0]])
    f = lambda x: 0.5 * x @ A @ x  # noqa: E731
    x = x0
    for _ in range(3):
        g = A @ x
        t = 1.0
        while f(x - t * g) > f(x) - 0.3 * t * g @ g:
            t *= 0.5
        x = x - t * g
    return f(x)


def newton_sqrt(a):
    x = a
    for _ in range(6):
        x = 0.5 * (x + a / x)
    return x


def newton_inner_solve(theta):
    """the minimiser of a strictly convex function found by Newton steps inside f."""
    x = np.zeros(2)
    for _ in range(8):
        g = np.exp(x) - theta + 0.1 * x
        H = np.diag(np.exp(x) + 0.1)
        x = x - np.linalg.solve(H, g)
    return np.sum(x ** 2)


def gradient_descent_inner(w0, X, y, lr=0.1, steps=5):
    w = w0.copy()
    for _ in range(steps):
        g = X.T @ (X @ w - y) / len(y)
        w -= lr * g
    return np.sum((X @ w - y) ** 2)


def projected_gd(x0):
    x = x0.copy()
    for _ in range(4):
        x = x - 0.2 * (x - np.array([0.5, 2.0, -1.5]))
        x = np.clip(x, -1.0, 1.0)
    return np.sum(x ** 2 + x)


def softmax_bisection(s):
    """water-filling: the threshold by a fixed number of bisection steps."""
    lo, hi = np.min(s) - 1.0, np.max(s)
    for _ in range(12):
        mid = 0.5 * (lo + hi)
        if np.sum(np.maximum(s - mid, 0.0)) > 1.0:
            lo = mid
        else:
            hi = mid
    return np.sum(np.maximum(s - 0.5 * (lo + hi), 0.0) * s)


def golden_section(a):
    f = lambda x: (x - a) ** 2 + 0.1 * x ** 4  # noqa: E731
    lo, hi = -3.0, 3.0
    phi = (np.sqrt(5) - 1) / 2
    for _ in range(15):
        c, d = hi - phi * (hi - lo), lo + phi * (hi - lo)
        if f(c) < f(d):
            hi = d
        else:
            lo = c
    return f(0.5 * (lo + hi)) + a


def trust_region_step(x):
    g = np.array([2 * x[0] + x[1], x[0] + 4 * x[1]])
    B = np.array([[2.0, 1.0], [1.0, 4.0]])
    p = -np.linalg.solve(B, g)
    radius = 0.5
    norm = np.sqrt(p @ p)
    if norm > radius:
        p = p * (radius / norm)
    return np.sum((x + p) ** 2)


def fixed_point_while(c):
    x, it = 0.0, 0
    while True:
        x_new = np.cos(x) * c
        it += 1
        if abs(x_new - x) < 1e-12 or it > 200:
            break
        x = x_new
    return x_new


def lbfgs_two_loop(g, s, y):
    q = g.copy()
    alphas = []
    for si, yi in reversed(list(zip(s, y))):
        a = si @ q / (yi @ si)
        q = q - a * yi
        alphas.append(a)
    r = q * (s[-1] @ y[-1]) / (y[-1] @ y[-1])
    for (si, yi), a in zip(zip(s, y), reversed(alphas)):
        b = yi @ r / (yi @ si)
        r = r + si * (a - b)
    return r


def _loss_kw(w, X, *, reg=0.1, power=2):
    return np.sum(np.tanh(X @ w) ** power) + reg * np.sum(w ** 2)


def kwargs_forward(w, X, **opts):
    return _loss_kw(w, X, **opts)


def _apply_all(x, *fns):
    return [fn(x) for fn in fns]


def star_args_fns(x):
    vals = _apply_all(x, np.sin, np.cos, lambda v: v ** 2)
    return sum(np.sum(v) for v in vals)


def partial_loss(w, X, y):
    mse = functools.partial(_weighted_mse, weights=np.linspace(0.5, 1.5, len(y)))
    return mse(X @ w, y)


def _weighted_mse(pred, y, weights=None):
    return np.sum(weights * (pred - y) ** 2)


def map_sorted(x):
    squares = list(map(lambda v: v * v, x))
    top = sorted(squares, reverse=True)[:2]
    return sum(top) + max(x) - min(x)


def closure_counter(x):
    calls = []

    def f(v):
        calls.append(1)
        return np.sin(v) * len(calls)
    return f(x) + f(2 * x)


def inplace_copy_ops(x):
    y = x.copy()
    y *= 2.0
    y[0] += y[-1]
    y[1:] -= 0.5 * y[:-1]
    y /= 1.0 + x ** 2
    return np.sum(y ** 3)


def reversed_views(x):
    y = x[::-1]
    z = np.concatenate([x[:2], y[:2]])
    return np.sum(z * x[1:5]) + x[-1] * y[-1]


def transpose_reshape(x):
    A = x.reshape(3, 4)
    B = A.T @ A
    return np.trace(B) + np.sum(A[:, 0] * A[:, -1]) + B[1:, :1].sum()


def dict_helper_returns(x):
    def stats(v):
        return {"mean": v.mean(), "sd": v.std(), "range": (v.min(), v.max())}
    s = stats(x)
    lo, hi = s["range"]
    return s["mean"] * s["sd"] + (hi - lo) ** 2


def tuple_unpack_chain(x):
    def split(v):
        return v[: len(v) // 2], v[len(v) // 2:]
    a, b = split(x)
    (c, d), e = split(a), b[::-1]
    return np.sum(c * d) + np.sum(e * b)


class Polynomial:
    def __init__(self, coefs):
        self.coefs = coefs

    def __call__(self, x):
        out = 0.0
        for c in reversed(self.coefs):
            out = out * x + c
        return out

    def derivative(self):
        return Polynomial([i * c for i, c in enumerate(self.coefs)][1:])


def poly_class_roots(c):
    p = Polynomial(list(c))
    dp = p.derivative()
    x = 1.0
    for _ in range(5):
        x = x - p(x) / dp(x)
    return x


class Model:
    def __init__(self, w, scale=2.0):
        self.w = w
        self.scale = scale

    def predict(self, X):
        return self.scale * np.tanh(X @ self.w)

    def loss(self, X, y):
        return np.mean((self.predict(X) - y) ** 2)


def model_built_inside(w, X, y):
    return Model(w).loss(X, y)


def enumerate_zip_weights(x, w):
    total = 0.0
    for i, (a, b) in enumerate(zip(x, w)):
        total += (i + 1) * a * np.exp(b)
    return total


def any_all_branch(x):
    if np.all(x > -5) and not np.any(np.isnan(x)):
        return np.sum(np.exp(-x ** 2))
    return 0.0


def nested_comprehension(M):
    rows = [[M[i, j] * (i + j) for j in range(M.shape[1])] for i in range(M.shape[0])]
    return sum(sum(r) ** 2 for r in rows)


def augmented_dict_update(x):
    acc = {"a": 0.0, "b": 0.0}
    for i, v in enumerate(x):
        key = "a" if i % 2 else "b"
        acc[key] += v ** 2
    return acc["a"] * acc["b"]


def default_args_helper(x):
    def f(v, a=2.0, b=None):
        if b is None:
            b = np.ones_like(v)
        return np.sum(a * v * b)
    return f(x) + f(x, 3.0) + f(x, b=x)


def max_builtin_key(x):
    parts = [x[:2], x[2:4], x[4:]]
    best = max(parts, key=lambda p: float(np.sum(p)))
    return np.sum(best ** 2)


def where_clip_kinks(x):
    y = np.where(x > 0, x, 0.5 * x)
    z = np.clip(y, -0.4, 0.9)
    return np.sum(z ** 2 + np.maximum(x, -0.2) * np.minimum(x, 0.3))


def abs_sign_mix(x):
    return np.sum(np.abs(x) * np.sign(x) * x + np.abs(x) ** 1.5)


def exp_moving_average(x, alpha=0.3):
    ema = x[0]
    out = [ema]
    for v in x[1:]:
        ema = alpha * v + (1 - alpha) * ema
        out.append(ema)
    return np.array(out)


def cumulative_ops(x):
    return np.cumsum(x) * np.cumprod(1 + 0.1 * x)


def finite_diff_inside(x):
    h = 1e-3
    f = lambda v: np.sin(v) * v  # noqa: E731
    return (f(x + h) - f(x - h)) / (2 * h)


def einsum_contractions(A):
    B = A.reshape(2, 2, 3)
    return np.einsum("ijk,ilk->jl", B, B).ravel()


def kron_outer_trace(x):
    M = np.outer(x, x[::-1])
    return np.trace(np.kron(M[:2, :2], np.eye(2))) + np.linalg.det(M + np.eye(len(x)))


def eigen_loss(x):
    A = x.reshape(3, 3)
    S = A + A.T
    w, V = np.linalg.eigh(S)
    return w[-1] + np.sum(V[:, 0] ** 4)


def svd_nuclear(x):
    A = x.reshape(3, 2)
    return np.sum(np.linalg.svd(A, compute_uv=False))


def qr_orthogonal(x):
    A = x.reshape(3, 3) + 2 * np.eye(3)
    Q, R = np.linalg.qr(A)
    return np.sum(np.abs(np.diag(R))) + Q[0, 0]


def inverse_trace(x):
    A = np.diag(np.exp(x)) + 0.1 * np.ones((len(x), len(x)))
    return np.trace(np.linalg.inv(A))
