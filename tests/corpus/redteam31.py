"""Programs a red team wrote against the issue-19 performance mechanisms (round 31): slice
reads whose cotangents go into still-zero regions of a fresh buffer, stores into fresh
copies, joins cut to their parts, small helpers inlined in loop bodies. The first block
got wrong gradients under "loop" before session 31's fix (a whole-array `du += ...`
between two slice reads left the earlier region marked still zero, and the later read
assigned over it); the rest passed and keep guarding. Each runs against finite
differences under every policy like the rest of the corpus."""
import numpy as np

from .case import case, floats, mixed, positive


# ---- a whole-array use between slice reads (wrong under "loop" before session 31) ------

@case(floats((8,), (8,)), wrt=(0, 1))
def ridge_with_edge_penalties(w, x):
    edge = np.sum(w[5:] ** 2)                   # read first, its cotangent added last
    fit = (x @ w - 1.0) ** 2                    # the whole of w
    return edge + fit + 0.1 * np.sum(np.sin(w[:2]))


@case(floats((7,)), wrt=0)
def centred_tails(x):
    return np.sum(x[3:] ** 2) + np.mean(x) ** 2 + np.sum(np.sin(x[:2]))


@case(floats((7,), ()), wrt=(0, 1))
def heat_step_with_copy_then_tails(u, k):
    acc = np.sum(u[1:-1:2] ** 2) + np.sum(u[5:] ** 2)
    un = u.copy()
    un[:1] = u[:1] * 2.0
    for _ in range(2):
        un = np.tanh(un + k * un)
    return acc + np.sum(un ** 2)


# ---- passed in round 31 ----------------------------------------------------------------

@case(floats((6,), (2, 6)), wrt=(0, 1))
def leaky_features_with_ends(x, M):
    body = np.sum(np.where(x > 0, x, 0.1 * x)) + np.sum(M * x)
    return np.sum(x[3:] ** 2) + body + np.sum(np.sin(x[:2]))


@case(floats((6,), ()), wrt=(0, 1))
def ar1_with_mean_prior(x, phi):
    r = x[1:] - phi * x[:-1]
    return 0.5 * np.sum(r ** 2) + 0.1 * np.sum(x) ** 2 + 0.5 * x[0] ** 2


@case(floats((7,), (), (), ()), wrt=(0, 1, 2, 3))
def heat_dirichlet_element_stores(u, k, left, right):
    for _ in range(4):
        un = u.copy()
        un[0] = left
        un[-1] = right
        un[1:-1] = u[1:-1] + k * (u[2:] - 2 * u[1:-1] + u[:-2])
        u = un
    return np.sum(u ** 2)


@case(floats((7,), ()), wrt=(0, 1))
def heat_neumann_copies_edges(u, k):
    for _ in range(4):
        un = u.copy()
        un[1:-1] = u[1:-1] + k * (u[2:] - 2 * u[1:-1] + u[:-2])
        un[0] = un[1]
        un[-1] = un[-2]
        u = un
    return np.sum(u ** 2)


@case(mixed(floats((7,)), lambda rng: [0.1, 0.05]), wrt=(0, 1, 2))
def burgers_upwind(u, nu, dt):
    for _ in range(3):
        un = u.copy()
        un[1:-1] = u[1:-1] - dt * u[1:-1] * (u[1:-1] - u[:-2]) + \
            nu * dt * (u[2:] - 2 * u[1:-1] + u[:-2])
        u = un
    return np.sum(u ** 2)


@case(floats((5, 5), ()), wrt=(0, 1))
def heat2d_with_boundary_rows(T, k):
    k = 0.1 * np.tanh(k)
    for _ in range(2):
        Tn = T.copy()
        Tn[1:-1, 1:-1] = T[1:-1, 1:-1] + k * (T[2:, 1:-1] + T[:-2, 1:-1] + T[1:-1, 2:] +
                                             T[1:-1, :-2] - 4 * T[1:-1, 1:-1])
        Tn[0, :] = Tn[1, :]
        Tn[:, -1] = 0.0
        T = Tn
    return np.sum(T ** 2)


@case(floats((6,), (6,), ()), wrt=(0, 1, 2))
def wave_two_fresh_copies(u, v, c):
    for _ in range(3):
        un = u.copy()
        vn = v.copy()
        vn[1:-1] = v[1:-1] + 0.2 * c * (u[2:] - 2 * u[1:-1] + u[:-2])
        un[1:-1] = u[1:-1] + vn[1:-1] * 0.1
        u, v = un, vn
    return np.sum(u ** 2) + np.sum(v ** 2)


@case(floats((6,), ()), wrt=(0, 1))
def upwind_periodic_element(u, c):
    c = 0.3 * np.tanh(c)
    for _ in range(3):
        un = u.copy()
        un[1:] = u[1:] - c * (u[1:] - u[:-1])
        un[0] = u[0] - c * (u[0] - u[-1])
        u = un
    return np.sum(u ** 3)


@case(floats((7,), ()), wrt=(0, 1))
def stores_overlapping_and_strided(u, a):
    for _ in range(2):
        un = u.copy()
        un[1:-1] = a * u[1:-1]
        un[2:] = np.sin(u[:-2])
        un[::2] = un[::2] * 0.5
        u = un
    return np.sum(u ** 3)


@case(floats((7,)), wrt=0)
def reads_past_the_end_and_reversed(u):
    return np.sum(u[5:100] ** 2) + np.sum(np.sin(u[:3])) + np.sum(u[-100:2] * 3.0) + \
        np.sum(u[::-1][:3] ** 2) + np.sum(u[-1:-6:-2] * 0.5)


@case(floats((6,), ()), wrt=(0, 1))
def concat_with_repeated_parts(u, k):
    for _ in range(3):
        m = u[1:-1] * k
        u = np.concatenate([m, m[:1], m[-1:], m[:1]])
    return np.sum(u ** 2 * np.arange(u.shape[0]))


@case(floats((6,), ()), wrt=(0, 1))
def heat_concat_same_edge_twice(u, k):
    for _ in range(3):
        lap = u[2:] - 2 * u[1:-1] + u[:-2]
        e = u[:1]
        u = np.concatenate([e, u[1:-1] + k * lap, e])
    return np.sum(u ** 3 * np.arange(u.shape[0]))


def _swap(p, q):
    return q, p


@case(floats((3,), (3,)), wrt=(0, 1))
def inlined_swap_in_loop(x, y):
    for _ in range(3):
        x, y = _swap(y, x)
        x = x * 1.5 + y
    return np.sum(x * y ** 2)


def _loss_term(pred, y):
    r = pred - y
    return np.sum(r * r) / len(y)


@case(floats((3,), (5, 3), (5,)), wrt=(0, 1, 2))
def inlined_loss_on_minibatches(w, X, y):
    total = 0.0
    for i in range(3):
        total = total + _loss_term(X[i:i + 2] @ w, y[i:i + 2])
        w = w * 0.9
    return total


@case(floats((5,), (5,), (), ()), wrt=(0, 1, 2, 3))
def spring_chain_in_place(x, v, k, dt):
    x = x.copy()
    v = v.copy()
    for _ in range(3):
        f = np.zeros_like(x)
        d = x[1:] - x[:-1] - 1.0
        f[:-1] += k * d
        f[1:] -= k * d
        v += 0.1 * dt * f
        x += 0.1 * dt * v
    return np.sum(x ** 2) + np.sum(v ** 2)


@case(mixed(floats((3,), (3,), (3,), scale=0.3), floats((6,))), wrt=(0, 1, 2, 3))
def gmm_loglik_broadcast(mu, log_s, w_logits, x):
    w = np.exp(w_logits - np.max(w_logits))
    w = w / np.sum(w)
    s = np.exp(log_s)
    d = (x[:, None] - mu[None, :]) / s[None, :]
    logp = -0.5 * d ** 2 - log_s[None, :] - 0.5 * np.log(2 * np.pi) + np.log(w)[None, :]
    m = np.max(logp, axis=1, keepdims=True)
    return np.sum(np.log(np.sum(np.exp(logp - m), axis=1)) + m[:, 0])


@case(positive((6,)), wrt=0)
def welford_variance(xs):
    mean = 0.0
    m2 = 0.0
    for n in range(len(xs)):
        d = xs[n] - mean
        mean += d / (n + 1)
        m2 += d * (xs[n] - mean)
    return m2 / (len(xs) - 1)


@case(mixed(lambda rng: [np.eye(3) * 2 + 0.3 * rng.standard_normal((3, 3))], floats((3,))),
      wrt=(0, 1))
def power_iteration_in_place_normalise(M, v):
    for _ in range(4):
        v = M @ v
        v /= np.sqrt(np.sum(v * v))
    return v @ M @ v


@case(lambda rng: [np.eye(3) + 0.3 * rng.standard_normal((3, 3))], wrt=0)
def gram_schmidt_columns(V):
    Q = np.zeros_like(V)
    for j in range(V.shape[1]):
        q = V[:, j].copy()
        for i in range(j):
            q -= (Q[:, i] @ V[:, j]) * Q[:, i]
        Q[:, j] = q / np.sqrt(q @ q)
    return np.sum(Q[:, -1] * np.arange(V.shape[0]))


@case(floats((4,)), wrt=0)
def chained_element_updates(x):
    acc = np.ones(4)
    s = 0.0
    for i in range(3):
        s = s + acc[i] * x[i]
        acc[i + 1] += acc[i] * x[i]
    return np.sum(acc ** 2) + s


@case(floats((5,), (), ()), wrt=(0, 1, 2))
def kalman_filter_1d(y, q, r):
    q, r = 0.3 + 0.1 * np.tanh(q), 0.5 + 0.1 * np.tanh(r)
    m, P = 0.0, 1.0
    ll = 0.0
    for t in range(len(y)):
        P = P + q
        S = P + r
        K = P / S
        ll = ll - 0.5 * (np.log(S) + (y[t] - m) ** 2 / S)
        m = m + K * (y[t] - m)
        P = (1 - K) * P
    return ll


@case(floats((3,), (3, 3), (4, 3)), wrt=(0, 1, 2))
def hmm_forward_log_space(log_pi, log_A, log_B):
    alpha = log_pi + log_B[0]
    for t in range(1, log_B.shape[0]):
        m = np.max(alpha)
        alpha = np.log(np.exp(alpha - m) @ np.exp(log_A)) + m + log_B[t]
    m = np.max(alpha)
    return np.log(np.sum(np.exp(alpha - m))) + m


@case(mixed(floats((3, 2), (3, 2)), positive((3,)), lambda rng: [0.01]), wrt=(0, 1, 2, 3))
def nbody_softened_steps(x, v, m, dt):
    for _ in range(2):
        d = x[None, :, :] - x[:, None, :]
        r2 = np.sum(d ** 2, axis=2) + 0.1
        a = np.sum(m[None, :, None] * d / r2[:, :, None] ** 1.5, axis=1)
        v = v + dt * a
        x = x + dt * v
    return np.sum(x ** 2) + np.sum(v ** 2)


@case(floats((3,), (5, 3), (5,), scale=0.5), wrt=(0, 1, 2))
def adam_steps_on_least_squares(w, X, y):
    m = np.zeros_like(w)
    s = np.zeros_like(w)
    for t in range(1, 4):
        g = X.T @ np.tanh(X @ w - y)
        m = 0.9 * m + 0.1 * g
        s = 0.99 * s + 0.01 * g * g
        w = w - 0.1 * (m / (1 - 0.9 ** t)) / (np.sqrt(s / (1 - 0.99 ** t)) + 1e-3)
    return np.sum(w ** 2)


@case(floats((8,), (3,)), wrt=(0, 1))
def conv1d_from_shifted_slices(x, w):
    out = w[0] * x[:-2] + w[1] * x[1:-1] + w[2] * x[2:]
    return np.sum(np.tanh(out) ** 2)
