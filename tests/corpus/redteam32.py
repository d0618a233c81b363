"""Session 32 red team (fix): programs written in the habits of users (helpers returning
tuples, lists of states turned into arrays, views, in-place slice updates, defaults left
out, progress printing, a config dataclass). Two failed before session 32 and are fixed:
`traj = np.array(traj)` rebinding an appended list to an array (flat and nested captured
`list(traj)` of the array: a TypeError in the backward sweep), and `q.shape[1]` of a
piece of np.split (loop: `dq = dq + ...` with dq None). The rest passed and keep guarding.
Each runs against finite differences under every policy like the rest of the corpus."""
import dataclasses

import numpy as np

from .case import case, floats, given, mixed, positive, refused


# ---- failed before session 32 -----------------------------------------------------------

def _rhs(y, params):
    a, b = params
    return np.array([y[1], -a * y[0] - b * y[1] + 0.1 * np.sin(y[0])])


@case(mixed(given(np.array([1.0, 0.0])), positive((2,), low=0.2, high=1.5)), wrt=(0, 1))
def rk4_trajectory_energy(y0, params, dt=0.05, steps=12):
    y = y0.copy()
    traj = [y]
    for _ in range(steps):
        k1 = _rhs(y, params)
        k2 = _rhs(y + 0.5 * dt * k1, params)
        k3 = _rhs(y + 0.5 * dt * k2, params)
        k4 = _rhs(y + dt * k3, params)
        y = y + dt / 6.0 * (k1 + 2 * k2 + 2 * k3 + k4)
        traj.append(y)
    traj = np.array(traj)                      # the list's name now holds an array
    return np.sum(traj[:, 0] ** 2) * dt + 0.5 * np.sum(y ** 2)


@case(floats((4, 3), (3, 6), scale=0.6), wrt=(0, 1))
def split_attention(X, W):
    q, k, v = np.split(X @ W, 3, axis=1)
    s = q @ k.T / np.sqrt(q.shape[1])          # q's kind unknown: .shape read by getattr
    s = s - s.max(axis=1, keepdims=True)
    a = np.exp(s)
    a /= a.sum(axis=1, keepdims=True)
    return np.sum((a @ v) ** 2)


@case(floats((2, 4)), wrt=0)
def shape_of_a_list_entry(X):
    parts = [X, X * 2.0]
    q = parts[0]
    return np.sum(q * q) / q.shape[1]


# ---- passed -----------------------------------------------------------------------------

def _labels(rng):
    return [np.array([0, 3, 1, 2, 2, 0, 1, 3, 0, 1, 2, 3])]


@case(mixed(floats((12, 3)), _labels, floats((3, 5), (5,), (5, 4), (4,), scale=0.5)),
      wrt=(2, 3, 4, 5))
def mlp_cross_entropy(X, labels, W1, b1, W2, b2):
    layers = [(W1, b1), (W2, b2)]
    h = X
    for k, (W, b) in enumerate(layers):
        h = h @ W + b
        if k < len(layers) - 1:
            h = np.maximum(h, 0.0) + 0.01 * np.minimum(h, 0.0)
    h = h - np.max(h, axis=1, keepdims=True)
    logp = h - np.log(np.sum(np.exp(h), axis=1, keepdims=True))
    return -np.mean(logp[np.arange(len(labels)), labels])


@case(mixed(positive((), (), low=0.2, high=0.8), floats((10,))), wrt=(0, 1))
def kalman_log_likelihood(q, r, ys, a=0.9):
    m, P = 0.0, 1.0
    ll = 0.0
    for y in ys:
        m, P = a * m, a * a * P + q
        S = P + r
        K = P / S
        ll += -0.5 * (np.log(2 * np.pi * S) + (y - m) ** 2 / S)
        m = m + K * (y - m)
        P = (1 - K) * P
    return ll


@case(mixed(given(np.sin(np.linspace(0, 3, 9))), positive((), low=0.1, high=0.3)),
      wrt=(0, 1))
def heat_double_buffer(u0, kappa, steps=10):
    u = np.array(u0, dtype=float)              # (u0.copy() is refused without shapes:
    un = np.empty_like(u)                      # a list's copy may hold u's rows)
    for _ in range(steps):
        un[0] = u[0]                           # (`un[0], un[-1] = u[0], u[-1]` is
        un[-1] = u[-1]                         # refused without shapes: u[0] may be a view)
        un[1:-1] = u[1:-1] + kappa * (u[2:] - 2 * u[1:-1] + u[:-2])
        u, un = un, u
    return np.sum(u ** 2)


@case(floats((), (), (12, 3), (12,), scale=0.5), wrt=(0, 1))
def bayes_linear_evidence(log_alpha, log_beta, X, y):
    alpha, beta = np.exp(log_alpha), np.exp(log_beta)
    n, d = X.shape
    A = alpha * np.eye(d) + beta * X.T @ X
    L = np.linalg.cholesky(A)
    mN = beta * np.linalg.solve(A, X.T @ y)
    fit = beta / 2 * np.sum((y - X @ mN) ** 2) + alpha / 2 * mN @ mN
    logdet = 2 * np.sum(np.log(np.diag(L)))
    return d / 2 * np.log(alpha) + n / 2 * np.log(beta) - fit - 0.5 * logdet


@case(floats((2,), (10,), scale=0.5), wrt=(0, 1))
def ar2_predictions_written(phi, x):
    pred = np.zeros_like(x)
    for t in range(2, len(x)):
        pred[t] = phi[0] * x[t - 1] + phi[1] * x[t - 2]
    resid = x[2:] - pred[2:]
    return np.sum(resid ** 2)


def _forces(x, k):
    f = np.zeros_like(x)
    d = np.diff(x) - 1.0
    f[:-1] += k * d
    f[1:] -= k * d
    return f


def _verlet(x, v, k, dt):
    a = _forces(x, k)
    x = x + dt * v + 0.5 * dt * dt * a
    v = v + 0.5 * dt * (a + _forces(x, k))
    return x, v


@case(mixed(given(np.array([0.0, 1.1, 1.9, 3.05, 4.0])), positive((), low=1.0, high=3.0)),
      wrt=(0, 1))
def spring_chain_verlet(x0, k, steps=8, dt=0.05):
    x, v = x0, np.zeros_like(x0)
    for step in range(steps):
        x, v = _verlet(x, v, k, dt)
    return 0.5 * np.sum(v ** 2) + 0.5 * k * np.sum((np.diff(x) - 1.0) ** 2)


@case(floats((4, 3), (3, 3)), wrt=(0, 1))
def svd_truncated_reconstruction(A, B):
    u, s, vt = np.linalg.svd(A @ B, full_matrices=False)
    s2 = s.copy()
    s2[2:] = 0.0
    R = (u * s2) @ vt
    return np.sum((R - A) ** 2) + 0.1 * np.sum(s)


@case(floats((3,), (12, 3), (12,), scale=1.5), wrt=0)
def huber_with_masked_scale(theta, X, y, delta=1.0):
    r = X @ theta - y
    big = np.abs(r) > delta
    loss = np.where(big, delta * (np.abs(r) - 0.5 * delta), 0.5 * r ** 2)
    loss[big] *= 0.5
    return np.sum(loss)


@case(floats((), ()), wrt=(0, 1))
def reparameterised_mc(mu, log_sd):
    rng = np.random.default_rng(0)
    eps = rng.normal(size=200)
    z = mu + np.exp(log_sd) * eps
    return np.mean(np.tanh(z) ** 2)


@dataclasses.dataclass
class Schedule:
    lr: float = 0.1
    steps: int = 5
    decay: float = 0.9


@case(floats((3,), (3,)), wrt=(0, 1))
def decayed_gradient_descent(w0, target, cfg=Schedule()):
    w = w0
    lr = cfg.lr
    history = []
    for _ in range(cfg.steps):
        g = 2 * (w - target)
        w = w - lr * g
        lr = lr * cfg.decay
        history.append(np.sum((w - target) ** 2))
    return history[-1] + 0.1 * sum(history)


@case(floats((3,), (3,)), wrt=(0, 1))     # session 34: a number read from an object is rebound
def decayed_gradient_descent_augmented(w0, target, cfg=Schedule()):
    w = w0
    lr = cfg.lr
    for _ in range(cfg.steps):
        w = w - lr * 2 * (w - target)
        lr *= cfg.decay
    return np.sum((w - target) ** 2)


# ---- round 2 (passed) -------------------------------------------------------------------

@case(floats((5,), (12, 3), (12,), scale=0.3), wrt=0)
def flat_parameter_views(theta, X, y):
    w = theta[:3]
    b = theta[3]
    log_s = theta[-1]
    r = (X @ w + b - y) / np.exp(log_s)
    return 0.5 * np.sum(r ** 2) + len(y) * log_s


def _params(rng):
    return [{"W": rng.standard_normal((2, 3)), "b": rng.standard_normal(2)}]


@case(mixed(_params, floats((12, 3), (12, 2))), wrt=0)
def dict_params_enumerate_zip(params, X, y, verbose=False):
    loss = 0.0
    for i, (xi, yi) in enumerate(zip(X, y)):
        pred = np.tanh(params["W"] @ xi + params["b"])
        loss += np.sum((pred - yi) ** 2)
        if verbose and i % 5 == 0:
            print(f"step {i}: {loss:.3f}")
    return loss / len(y)


def _sin_cos(x, a):
    return np.sin(a * x), np.cos(a * x) * x


@case(floats((), (5,)), wrt=(0, 1))
def zip_star_of_helper_pairs(a, xs):
    outs = [_sin_cos(x, a) for x in xs]
    s, c = zip(*outs)
    return np.sum(np.array(s) * np.array(c))


@case(positive((), low=1.5, high=4.0), wrt=0)
def newton_cube_root(c, x0=1.0, iters=6):
    x = x0
    for _ in range(iters):
        fx = x ** 3 - c
        x = x - fx / (3 * x ** 2)
        x = np.clip(x, 0.1, 10.0)
    return x


@case(floats((3, 3), (3, 3), (3, 3)), wrt=(0, 1, 2))
def einsum_chain_norm(U, V, A):
    M = np.einsum("ij,jk,kl->il", U, A, V)
    return np.linalg.norm(M) + np.trace(M)


class _Linear:
    def __init__(self, W, b):
        self.W = W
        self.b = b

    def __call__(self, x):
        return x @ self.W + self.b


@case(floats((3, 1), (1,), (12, 3), (12,)), wrt=(0, 1))
def callable_model_mse(W, b, X, y):
    model = _Linear(W, b)
    pred = model(X)
    return np.mean((pred.ravel() - y) ** 2)


@case(floats((4,), (3,)), wrt=(0, 1))
def reshaped_features_gram(x, w):
    col = x.reshape(-1, 1)
    feats = np.concatenate([col, col ** 2, np.sin(col)], axis=1)
    gram = np.outer(w, w)
    return np.sum(feats @ gram @ feats.T) / x.size


@case(floats((8,), ()), wrt=(0, 1))
def cumsum_path_drawdown(increments, scale):
    path = np.cumsum(scale * increments)
    drawdown = np.maximum.accumulate(path) - path
    return np.sum(np.diff(path) ** 2) + 0.1 * np.sum(drawdown)


@case(floats((3,), (12, 3), (12,)), wrt=0)
def trimmed_sorted_losses(w, X, y):
    losses = [(float(i), (xi @ w - yi) ** 2) for i, (xi, yi) in enumerate(zip(X, y))]
    kept = sorted(losses, key=lambda p: p[1])[: len(losses) - 2]
    return sum(l for _, l in kept) / len(kept)


@case(floats((4,)), wrt=0)
def while_with_counted_break(x, tol_steps=20):
    k = 0
    v = x.copy()
    while k < tol_steps:
        v = 0.5 * v + 0.5 * np.tanh(v + x)
        k += 1
        if k > 7:
            break
    return np.sum(v ** 2)


@case(floats((4, 3), (3,)), wrt=(0, 1))
def columns_normalised_in_place(A, w):
    B = A.copy()
    for j in range(B.shape[1]):
        B[:, j] /= np.linalg.norm(B[:, j])
    return np.sum((B @ w) ** 2)
