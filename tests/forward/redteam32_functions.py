"""Session 32 red team (red): functions written the way users write them (helpers
returning tuples, dicts of parameters, in-place slice updates, print, branches on
values, np.where, max/min, reductions with axis/keepdims, list accumulation, keyword
defaults left out, SciPy special functions, linear algebra), for jvp and jacfwd."""
import numpy as np

from tests.optional_scipy import scipy_module

sp = scipy_module("special")       # None without SciPy: `special` is then not run


def _stats(x):
    m = np.mean(x, axis=0, keepdims=True)
    v = np.var(x, axis=0, keepdims=True)
    return m, v


def layernorm(x, g, b):
    m, v = _stats(x)
    return g * (x - m) / np.sqrt(v + 1e-5) + b


def mlp(params, x):
    h = x
    for W, b in params["layers"]:
        h = np.tanh(h @ W + b)
    return np.sum(h ** 2, axis=1)


def heat(u, k):
    u = u.copy()
    for t in range(5):
        u[1:-1] += 0.1 * k * (u[2:] - 2 * u[1:-1] + u[:-2])
    return u


def softmax_xent(logits, y):
    z = logits - np.max(logits, axis=1, keepdims=True)
    lse = np.log(np.sum(np.exp(z), axis=1))
    return lse - z[np.arange(len(y)), y]


def relu_where(x, w):
    h = np.where(x > 0, x * w, 0.01 * x)
    return np.maximum(h, -0.5) + np.minimum(h, 0.3)


def pyminmax(a, b):
    return max(a * b, a + b) - min(a, b ** 2)


def branchy(x, th):
    s = np.sum(x)
    if s > 0:
        y = x * th
    else:
        y = x / th
    print("progress", 1)
    return y


def accum(x, n=4):
    outs = []
    for i in range(n):
        x = np.sin(x) + 0.5 * x
        outs.append(x.sum())
    return np.array(outs)


def f32(x, w):
    return np.tanh(x @ w).astype(x.dtype) * 2.0


def matops(A, B):
    C = A @ B.T
    return np.trace(C) * np.linalg.solve(A @ A.T + 3 * np.eye(3), B[:, 0])


def gaussian_ll(mu, logsig, x):
    sig = np.exp(logsig)
    return -0.5 * np.sum(((x - mu) / sig) ** 2, axis=-1) - np.sum(logsig)


def ode(y0, k, dt=0.1):
    y = y0
    traj = [y]
    for i in range(6):
        y = y + dt * (-k * y + np.sin(y))
        traj.append(y)
    return np.stack(traj)


def cumulative(x):
    return np.cumsum(x * x) / np.arange(1, len(x) + 1)


def dictout(x, w):
    return {"a": x * w, "b": (np.sum(x), w ** 2)}


def whileloop(x):
    i = 0
    while i < 3:
        x = x * 0.9 + np.cos(x)
        i += 1
    return x


def sortabs(x):
    y = np.sort(x)
    return y[-2:] * np.abs(x).max()


def normalize(x):
    x = x / np.linalg.norm(x, axis=1, keepdims=True)
    return x @ x.T


def clipstd(x):
    return np.clip(x, -1.0, 1.0) * x.std(ddof=1)


def prodmean(x):
    return np.prod(x, axis=0) + x.mean(axis=(0, 1))


def stores_loop(x):
    out = np.zeros(len(x))
    for i in range(len(x)):
        out[i] = x[i] * x[i - 1]
    return out


def detinv(A):
    return np.linalg.det(A) * np.linalg.inv(A)


def maxaxis(X):
    return np.max(X, axis=1, keepdims=True) - np.min(X, axis=0) [None, :] + np.linalg.norm(X, axis=0)


def special(x):
    return sp.gammaln(x) + sp.erf(x) + sp.xlogy(x, x)


def floats(x):
    a = float(x[0])
    return x * a


def itemmin(x):
    m = min(x[0], x[1])
    return x * m + abs(x[2])


def powers(x, p):
    return np.abs(x) ** p + x ** 2 / p


def listsum(xs):
    total = 0.0
    parts = []
    for x in xs:
        parts.append(x * x)
    total = sum(parts)
    return total


def nested_tuple(p):
    (a, b), c = p
    return a * b + c, (a - c) ** 2


def ternary(x, w):
    return x * w if w > 0 else -x * w


def kw_default(x, scale=2.0, *, shift=0.5):
    return np.exp(x * scale) + shift * x


def reshape_T(x):
    m = x.reshape(3, -1)
    return (m.T @ m).sum(axis=0)


def argmax_pick(X):
    k = np.argmax(X, axis=1)
    return X[np.arange(X.shape[0]), k] * 2


def where_div(x):
    return np.where(x > 0, np.sqrt(np.abs(x) + 1e-3), x ** 2)


def logistic_reg(w, X, y):
    z = X @ w
    p = 1 / (1 + np.exp(-z))
    return -np.mean(y * np.log(p) + (1 - y) * np.log(1 - p))


def views(x):
    y = x.reshape(2, 3)
    z = y.T[1:, :]
    return z * y[0, 1]


def shape_branches(x, w):
    y = x * w
    if np.ndim(y) == 2:
        y = y.sum(axis=0)
    s = np.sum(y ** 2) if np.size(y) > 3 else np.prod(y)
    return s + np.max(x)


def picks_index(x):
    return float(x[0]), int(np.argmax(x))
