"""Issue 19's scientific workloads, written the way their domains write them, with
hand-written NumPy gradients.

Each workload is a module-level function thunkgrad differentiates, a data maker
(`quick=True`: the smaller sizes of a smoke run) and a hand-written gradient in the
primal's loop style (a forward loop saving what the backward loop reads, then the
backward loop). Helper-style variants (`cell`, `rhs`, `un = u.copy()`) compute the
same values as their one-function forms and share their hand-written gradients.
benchmarks/scientific.py checks every hand gradient against central differences and
against thunkgrad before timing anything. The loss of each is a number.
"""
import numpy as np


# ---- 1-D heat equation: explicit Euler, fixed ends --------------------------------------
def heat(u, k, steps):
    for _ in range(steps):
        lap = u[2:] - 2 * u[1:-1] + u[:-2]
        u = np.concatenate([u[:1], u[1:-1] + k * lap, u[-1:]])
    return np.sum(u ** 2)


def heat_copy(u, k, steps):
    for _ in range(steps):
        un = u.copy()
        un[1:-1] = u[1:-1] + k * (u[2:] - 2 * u[1:-1] + u[:-2])
        u = un
    return np.sum(u ** 2)


def heat_data(quick=False, cells=256):
    x = np.linspace(0.0, 1.0, cells)
    return np.sin(np.pi * x) + 0.3 * np.sin(5 * np.pi * x), 0.2, 1000 if quick else 10000


def heat_hand(u, k, steps):
    """(du0, dk). The step is linear in u: the backward step applies its transpose."""
    saved = []
    for _ in range(steps):
        lap = u[2:] - 2 * u[1:-1] + u[:-2]
        saved.append(lap)
        u = u.copy()
        u[1:-1] += k * lap
    du, dk = 2 * u, 0.0
    for lap in reversed(saved):
        mid = du[1:-1].copy()
        dk += mid @ lap
        mid *= k
        du[2:] += mid
        du[1:-1] -= 2 * mid
        du[:-2] += mid
    return du, dk


# ---- Gaussian-process negative log marginal likelihood ----------------------------------
def gp_nll(log_ell, log_sf, log_sn, X, y):
    sq = np.sum(X ** 2, axis=1)
    d2 = sq[:, None] + sq[None, :] - 2 * X @ X.T
    K = np.exp(2 * log_sf) * np.exp(-0.5 * d2 / np.exp(2 * log_ell))
    K = K + np.exp(2 * log_sn) * np.eye(X.shape[0])
    L = np.linalg.cholesky(K)
    a = np.linalg.solve(L, y)
    return 0.5 * (a @ a) + np.sum(np.log(np.diag(L))) + 0.5 * len(y) * np.log(2 * np.pi)


def gp_data(quick=False, seed=0):
    n = 120 if quick else 500
    rng = np.random.default_rng(seed)
    X = rng.uniform(-3, 3, size=(n, 2))
    y = np.sin(X[:, 0]) * np.cos(X[:, 1]) + 0.1 * rng.normal(size=n)
    return np.log(0.8), np.log(1.2), np.log(0.3), X, y


def gp_hand(log_ell, log_sf, log_sn, X, y):
    """d/d(log_ell, log_sf, log_sn): dK = (K^-1 - alpha alpha^T) / 2, then the chain rule."""
    sq = np.sum(X ** 2, axis=1)
    d2 = sq[:, None] + sq[None, :] - 2 * X @ X.T
    ell2, sf2, sn2 = np.exp(2 * log_ell), np.exp(2 * log_sf), np.exp(2 * log_sn)
    Kf = sf2 * np.exp(-0.5 * d2 / ell2)
    L = np.linalg.cholesky(Kf + sn2 * np.eye(len(y)))
    Linv = np.linalg.inv(L)                    # triangular: cheap relative to the products
    Kinv = Linv.T @ Linv
    alpha = Kinv @ y
    dK = 0.5 * (Kinv - np.outer(alpha, alpha))
    return (np.sum(dK * Kf * d2 / ell2), 2 * np.sum(dK * Kf), 2 * sn2 * np.trace(dK))


# ---- 2-layer LSTM ----------------------------------------------------------------------
def sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


def lstm_loss(Wx1, Wh1, b1, Wx2, Wh2, b2, xs):
    H = b1.shape[0] // 4
    h1 = c1 = h2 = c2 = np.zeros(H)
    for x in xs:
        z = Wx1 @ x + Wh1 @ h1 + b1
        c1 = sigmoid(z[H:2 * H]) * c1 + sigmoid(z[:H]) * np.tanh(z[3 * H:])
        h1 = sigmoid(z[2 * H:3 * H]) * np.tanh(c1)
        z = Wx2 @ h1 + Wh2 @ h2 + b2
        c2 = sigmoid(z[H:2 * H]) * c2 + sigmoid(z[:H]) * np.tanh(z[3 * H:])
        h2 = sigmoid(z[2 * H:3 * H]) * np.tanh(c2)
    return np.sum(h2 ** 2)


def cell(x, h, c, Wx, Wh, b):
    H = h.shape[0]
    z = Wx @ x + Wh @ h + b
    c = sigmoid(z[H:2 * H]) * c + sigmoid(z[:H]) * np.tanh(z[3 * H:])
    return sigmoid(z[2 * H:3 * H]) * np.tanh(c), c


def lstm_cell_loss(Wx1, Wh1, b1, Wx2, Wh2, b2, xs):
    H = b1.shape[0] // 4
    h1 = c1 = h2 = c2 = np.zeros(H)
    for x in xs:
        h1, c1 = cell(x, h1, c1, Wx1, Wh1, b1)
        h2, c2 = cell(h1, h2, c2, Wx2, Wh2, b2)
    return np.sum(h2 ** 2)


def lstm_data(quick=False, seed=0, hidden=128, inputs=32):
    rng = np.random.default_rng(seed)
    steps = 40 if quick else 200

    def weights(rows, cols):
        return rng.normal(size=(rows, cols)) / np.sqrt(cols)
    H = hidden
    return (weights(4 * H, inputs), weights(4 * H, H), 0.1 * rng.normal(size=4 * H),
            weights(4 * H, H), weights(4 * H, H), 0.1 * rng.normal(size=4 * H),
            [rng.normal(size=inputs) for _ in range(steps)])


def _cell_forward(x, h, c, Wx, Wh, b):
    H = h.shape[0]
    z = Wx @ x + Wh @ h + b
    i, f, o, gt = sigmoid(z[:H]), sigmoid(z[H:2 * H]), sigmoid(z[2 * H:3 * H]), np.tanh(z[3 * H:])
    c_new = f * c + i * gt
    tc = np.tanh(c_new)
    return o * tc, c_new, (x, h, c, i, f, o, gt, tc)


def _cell_backward(dh, dc, saved, Wx, Wh, grads):
    """Cotangents of (x, h, c) from those of the cell's (h, c); adds into grads (dWx, dWh, db)."""
    x, h, c, i, f, o, gt, tc = saved
    dc = dc + dh * o * (1 - tc ** 2)
    dz = np.concatenate([dc * gt * i * (1 - i), dc * c * f * (1 - f),
                         dh * tc * o * (1 - o), dc * i * (1 - gt ** 2)])
    grads[0] += np.outer(dz, x)
    grads[1] += np.outer(dz, h)
    grads[2] += dz
    return Wx.T @ dz, Wh.T @ dz, dc * f


def lstm_hand(Wx1, Wh1, b1, Wx2, Wh2, b2, xs):
    H = b1.shape[0] // 4
    h1 = c1 = h2 = c2 = np.zeros(H)
    tape = []
    for x in xs:
        h1, c1, s1 = _cell_forward(x, h1, c1, Wx1, Wh1, b1)
        h2, c2, s2 = _cell_forward(h1, h2, c2, Wx2, Wh2, b2)
        tape.append((s1, s2))
    g1 = [np.zeros_like(Wx1), np.zeros_like(Wh1), np.zeros_like(b1)]
    g2 = [np.zeros_like(Wx2), np.zeros_like(Wh2), np.zeros_like(b2)]
    dh2, dc2, dh1, dc1 = 2 * h2, np.zeros(H), np.zeros(H), np.zeros(H)
    for s1, s2 in reversed(tape):
        dx2, dh2, dc2 = _cell_backward(dh2, dc2, s2, Wx2, Wh2, g2)
        _, dh1, dc1 = _cell_backward(dh1 + dx2, dc1, s1, Wx1, Wh1, g1)
    return tuple(g1) + tuple(g2)


# ---- N-body, leapfrog (kick-drift-kick) ---------------------------------------------------
def nbody(q, v, m, dt, steps):
    eps2 = 1e-2
    for _ in range(steps):
        d = q[:, None, :] - q[None, :, :]
        inv3 = (np.sum(d ** 2, axis=2) + eps2) ** -1.5
        v = v - 0.5 * dt * np.sum(m[None, :, None] * d * inv3[:, :, None], axis=1)
        q = q + dt * v
        d = q[:, None, :] - q[None, :, :]
        inv3 = (np.sum(d ** 2, axis=2) + eps2) ** -1.5
        v = v - 0.5 * dt * np.sum(m[None, :, None] * d * inv3[:, :, None], axis=1)
    return np.sum(q ** 2) + np.sum(v ** 2)


def nbody_data(quick=False, seed=0, bodies=16):
    rng = np.random.default_rng(seed)
    return (rng.normal(size=(bodies, 3)), 0.3 * rng.normal(size=(bodies, 3)),
            rng.uniform(0.5, 1.5, size=bodies), 1e-3, 100 if quick else 1000)


def _accel(q, m, eps2=1e-2):
    d = q[:, None, :] - q[None, :, :]
    r2 = np.sum(d ** 2, axis=2) + eps2
    return -np.sum(m[None, :, None] * d * (r2 ** -1.5)[:, :, None], axis=1), (d, r2)


def _accel_vjp(ga, q, m, saved):
    """(dq, dm) from the cotangent `ga` of the accelerations."""
    d, r2 = saved
    s, ds = r2 ** -1.5, -1.5 * r2 ** -2.5
    dot = np.einsum("ik,ijk->ij", ga, d)                       # ga_i . d_ij
    gd = -m[None, :, None] * (s[:, :, None] * ga[:, None, :] + 2 * (ds * dot)[:, :, None] * d)
    dm = -np.einsum("ik,ijk->j", ga, d * s[:, :, None])
    return np.sum(gd, axis=1) - np.sum(gd, axis=0), dm


def nbody_hand(q, v, m, dt, steps):
    """(dq0, dv0, dm): the leapfrog steps backwards, saving each step's pair data."""
    tape = []
    for _ in range(steps):
        a0, s0 = _accel(q, m)
        v = v + 0.5 * dt * a0
        q0, q = q, q + dt * v
        a1, s1 = _accel(q, m)
        v = v + 0.5 * dt * a1
        tape.append((q0, s0, q, s1))
    dq, dv, dm = 2 * q, 2 * v, np.zeros_like(m)
    for q0, s0, q1, s1 in reversed(tape):
        gq, gm = _accel_vjp(0.5 * dt * dv, q1, m, s1)
        dq, dm = dq + gq, dm + gm
        dv = dv + dt * dq
        gq, gm = _accel_vjp(0.5 * dt * dv, q0, m, s0)
        dq, dm = dq + gq, dm + gm
    return dq, dv, dm


# ---- logistic regression -------------------------------------------------------------------
def logistic(w, b, X, y, lam):
    z = X @ w + b
    return np.mean(np.logaddexp(0, -y * z)) + 0.5 * lam * (w @ w)


def logistic_data(quick=False, seed=0):
    rng = np.random.default_rng(seed)
    n = 10000 if quick else 100000
    X = rng.normal(size=(n, 50)).astype(np.float32)
    w_true = rng.normal(size=50).astype(np.float32)
    y = np.where(X @ w_true + 0.5 * rng.normal(size=n) > 0, 1.0, -1.0).astype(np.float32)
    return 0.1 * rng.normal(size=50).astype(np.float32), np.float32(0.1), X, y, 1e-3


def logistic_hand(w, b, X, y, lam):
    z = X @ w + b
    t = -y * z
    dz = -y * np.exp(t - np.logaddexp(0, t)) / len(y)     # -y * sigmoid(t) / n
    return X.T @ dz + lam * w, np.sum(dz)


def logistic_hand_vec(w, b, X, y, lam):
    """What an expert writes instead: sigmoid(t) = exp(min(t, 0)) / (1 + exp(-|t|)), no
    overflow and no branch, not through np.logaddexp (NumPy's logaddexp loop calls libm's
    exp and log1p per element)."""
    t = -y * (X @ w + b)
    dz = -y * (np.exp(np.minimum(t, 0)) / (1.0 + np.exp(-np.abs(t)))) / len(y)
    return X.T @ dz + lam * w, np.sum(dz)


# ---- RK4 integrator --------------------------------------------------------------------------
def rk4(y, W, h, steps):
    for _ in range(steps):
        k1 = np.tanh(W @ y)
        k2 = np.tanh(W @ (y + 0.5 * h * k1))
        k3 = np.tanh(W @ (y + 0.5 * h * k2))
        k4 = np.tanh(W @ (y + h * k3))
        y = y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
    return np.sum(y ** 2)


def rhs(y, W):
    return np.tanh(W @ y)


def rk4_rhs(y, W, h, steps):
    for _ in range(steps):
        k1 = rhs(y, W)
        k2 = rhs(y + 0.5 * h * k1, W)
        k3 = rhs(y + 0.5 * h * k2, W)
        k4 = rhs(y + h * k3, W)
        y = y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
    return np.sum(y ** 2)


def rk4_data(quick=False, seed=0, dim=16):
    rng = np.random.default_rng(seed)
    return rng.normal(size=dim), rng.normal(size=(dim, dim)) / np.sqrt(dim), 0.01, \
        100 if quick else 500


def rk4_hand(y, W, h, steps):
    """(dy0, dW): each step's four stages backwards, saving their inputs and tanh values."""
    tape = []
    for _ in range(steps):
        y1 = y
        k1 = np.tanh(W @ y1)
        y2 = y + 0.5 * h * k1
        k2 = np.tanh(W @ y2)
        y3 = y + 0.5 * h * k2
        k3 = np.tanh(W @ y3)
        y4 = y + h * k3
        k4 = np.tanh(W @ y4)
        tape.append(((y1, k1), (y2, k2), (y3, k3), (y4, k4)))
        y = y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
    dy, dW = 2 * y, np.zeros_like(W)
    for stages in reversed(tape):
        dk = [h / 6 * dy, h / 3 * dy, h / 3 * dy, h / 6 * dy]
        for s in (3, 2, 1, 0):                     # stage s read y + c_s * h * k_(s-1)
            ys, ks = stages[s]
            gz = dk[s] * (1 - ks ** 2)
            dW += np.outer(gz, ys)
            dys = W.T @ gz
            dy = dy + dys
            if s:
                dk[s - 1] = dk[s - 1] + (h if s == 3 else 0.5 * h) * dys
    return dy, dW


# ---- vectorised hand-written gradients: the weight gradients as one matrix product ----------
def lstm_hand_vec(Wx1, Wh1, b1, Wx2, Wh2, b2, xs):
    """lstm_hand with each weight's per-step outer products batched into one product."""
    H = b1.shape[0] // 4
    h1 = c1 = h2 = c2 = np.zeros(H)
    tape = []
    for x in xs:
        h1, c1, s1 = _cell_forward(x, h1, c1, Wx1, Wh1, b1)
        h2, c2, s2 = _cell_forward(h1, h2, c2, Wx2, Wh2, b2)
        tape.append((s1, s2))
    rows = {k: [] for k in ("z1", "x1", "h1", "z2", "x2", "h2")}
    dh2, dc2, dh1, dc1 = 2 * h2, np.zeros(H), np.zeros(H), np.zeros(H)
    for s1, s2 in reversed(tape):
        dz2, dc2 = _gates_backward(dh2, dc2, s2)
        dx2, dh2 = Wx2.T @ dz2, Wh2.T @ dz2
        dz1, dc1 = _gates_backward(dh1 + dx2, dc1, s1)
        dh1 = Wh1.T @ dz1
        for key, value in (("z1", dz1), ("x1", s1[0]), ("h1", s1[1]),
                           ("z2", dz2), ("x2", s2[0]), ("h2", s2[1])):
            rows[key].append(value)
    m = {k: np.array(v) for k, v in rows.items()}
    return (m["z1"].T @ m["x1"], m["z1"].T @ m["h1"], m["z1"].sum(axis=0),
            m["z2"].T @ m["x2"], m["z2"].T @ m["h2"], m["z2"].sum(axis=0))


def _gates_backward(dh, dc, saved):
    """(dz, cotangent of the old c) of one cell from those of its (h, c)."""
    x, h, c, i, f, o, gt, tc = saved
    dc = dc + dh * o * (1 - tc ** 2)
    dz = np.concatenate([dc * gt * i * (1 - i), dc * c * f * (1 - f),
                         dh * tc * o * (1 - o), dc * i * (1 - gt ** 2)])
    return dz, dc * f


def rk4_hand_vec(y, W, h, steps):
    """rk4_hand with dW's 4 * steps outer products as one matrix product."""
    tape = []
    for _ in range(steps):
        k1 = np.tanh(W @ y)
        y2 = y + 0.5 * h * k1
        k2 = np.tanh(W @ y2)
        y3 = y + 0.5 * h * k2
        k3 = np.tanh(W @ y3)
        y4 = y + h * k3
        k4 = np.tanh(W @ y4)
        tape.append(((y, k1), (y2, k2), (y3, k3), (y4, k4)))
        y = y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
    dy, gzs, ys = 2 * y, [], []
    for stages in reversed(tape):
        dk = [h / 6 * dy, h / 3 * dy, h / 3 * dy, h / 6 * dy]
        for s in (3, 2, 1, 0):
            ys_, ks = stages[s]
            gz = dk[s] * (1 - ks ** 2)
            gzs.append(gz)
            ys.append(ys_)
            dys = W.T @ gz
            dy = dy + dys
            if s:
                dk[s - 1] = dk[s - 1] + (h if s == 3 else 0.5 * h) * dys
    return dy, np.array(gzs).T @ np.array(ys)
