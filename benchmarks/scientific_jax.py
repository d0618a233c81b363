"""Issue 19's scientific workloads written for JAX (benchmarks/scientific.py times them).

Each workload is one step function (or a loss without a loop) shared by two programs:

    eager   the primal's Python loop, differentiated with jax.grad op by op
    jit     the loop as `lax.fori_loop` (over a static trip count, so reverse mode works)
            or `lax.scan` over the LSTM's inputs, under jax.jit(jax.grad(...))

Unrolling 10,000 Python iterations into one XLA program would take minutes to compile,
so the jit programs use JAX's loop primitives, as JAX users write them. The helper
variants call their helper (`cell`, `rhs`); `un = u.copy(); un[1:-1] = ...` becomes
`u.at[1:-1].set(...)`, JAX arrays being immutable. Importing this module imports JAX.
"""
import jax
import jax.numpy as jnp
from jax import lax


# ---- S1 / S1c heat ------------------------------------------------------------------------
def heat_step(u, k):
    lap = u[2:] - 2 * u[1:-1] + u[:-2]
    return jnp.concatenate([u[:1], u[1:-1] + k * lap, u[-1:]])


def heat_copy_step(u, k):
    return u.at[1:-1].set(u[1:-1] + k * (u[2:] - 2 * u[1:-1] + u[:-2]))


def looped(step):
    """(eager, jit) programs of `for _ in range(steps): u = step(u, k)` then sum(u ** 2)."""
    def eager(u, k, steps):
        for _ in range(steps):
            u = step(u, k)
        return jnp.sum(u ** 2)

    def jitted(u, k, steps):
        u = lax.fori_loop(0, steps, lambda _, u: step(u, k), u)
        return jnp.sum(u ** 2)
    return eager, jitted


# ---- S2 GP ------------------------------------------------------------------------------------
def gp_nll(log_ell, log_sf, log_sn, X, y):
    sq = jnp.sum(X ** 2, axis=1)
    d2 = sq[:, None] + sq[None, :] - 2 * X @ X.T
    K = jnp.exp(2 * log_sf) * jnp.exp(-0.5 * d2 / jnp.exp(2 * log_ell))
    K = K + jnp.exp(2 * log_sn) * jnp.eye(X.shape[0])
    L = jnp.linalg.cholesky(K)
    a = jnp.linalg.solve(L, y)
    return 0.5 * (a @ a) + jnp.sum(jnp.log(jnp.diag(L))) + 0.5 * len(y) * jnp.log(2 * jnp.pi)


# ---- S3 / S3c LSTM ----------------------------------------------------------------------------
def sigmoid(z):
    return 1.0 / (1.0 + jnp.exp(-z))


def cell(x, h, c, Wx, Wh, b):
    H = h.shape[0]
    z = Wx @ x + Wh @ h + b
    c = sigmoid(z[H:2 * H]) * c + sigmoid(z[:H]) * jnp.tanh(z[3 * H:])
    return sigmoid(z[2 * H:3 * H]) * jnp.tanh(c), c


def lstm_inline_step(state, x, Wx1, Wh1, b1, Wx2, Wh2, b2):
    h1, c1, h2, c2 = state
    H = h1.shape[0]
    z = Wx1 @ x + Wh1 @ h1 + b1
    c1 = sigmoid(z[H:2 * H]) * c1 + sigmoid(z[:H]) * jnp.tanh(z[3 * H:])
    h1 = sigmoid(z[2 * H:3 * H]) * jnp.tanh(c1)
    z = Wx2 @ h1 + Wh2 @ h2 + b2
    c2 = sigmoid(z[H:2 * H]) * c2 + sigmoid(z[:H]) * jnp.tanh(z[3 * H:])
    h2 = sigmoid(z[2 * H:3 * H]) * jnp.tanh(c2)
    return h1, c1, h2, c2


def lstm_cell_step(state, x, Wx1, Wh1, b1, Wx2, Wh2, b2):
    h1, c1, h2, c2 = state
    h1, c1 = cell(x, h1, c1, Wx1, Wh1, b1)
    h2, c2 = cell(h1, h2, c2, Wx2, Wh2, b2)
    return h1, c1, h2, c2


def lstm(step):
    """(eager, jit) LSTM losses; eager loops over a list of inputs, jit scans a stack."""
    def eager(Wx1, Wh1, b1, Wx2, Wh2, b2, xs):
        zero = jnp.zeros(b1.shape[0] // 4)
        state = (zero, zero, zero, zero)
        for x in xs:
            state = step(state, x, Wx1, Wh1, b1, Wx2, Wh2, b2)
        return jnp.sum(state[2] ** 2)

    def jitted(Wx1, Wh1, b1, Wx2, Wh2, b2, xs):
        zero = jnp.zeros(b1.shape[0] // 4)

        def body(state, x):
            return step(state, x, Wx1, Wh1, b1, Wx2, Wh2, b2), None
        state, _ = lax.scan(body, (zero, zero, zero, zero), xs)
        return jnp.sum(state[2] ** 2)
    return eager, jitted


# ---- S4 N-body --------------------------------------------------------------------------------
def nbody_step(q, v, m, dt):
    eps2 = 1e-2
    d = q[:, None, :] - q[None, :, :]
    inv3 = (jnp.sum(d ** 2, axis=2) + eps2) ** -1.5
    v = v - 0.5 * dt * jnp.sum(m[None, :, None] * d * inv3[:, :, None], axis=1)
    q = q + dt * v
    d = q[:, None, :] - q[None, :, :]
    inv3 = (jnp.sum(d ** 2, axis=2) + eps2) ** -1.5
    v = v - 0.5 * dt * jnp.sum(m[None, :, None] * d * inv3[:, :, None], axis=1)
    return q, v


def nbody_eager(q, v, m, dt, steps):
    for _ in range(steps):
        q, v = nbody_step(q, v, m, dt)
    return jnp.sum(q ** 2) + jnp.sum(v ** 2)


def nbody_jit(q, v, m, dt, steps):
    q, v = lax.fori_loop(0, steps, lambda _, qv: nbody_step(*qv, m, dt), (q, v))
    return jnp.sum(q ** 2) + jnp.sum(v ** 2)


# ---- S5 logistic regression ---------------------------------------------------------------------
def logistic(w, b, X, y, lam):
    z = X @ w + b
    return jnp.mean(jnp.logaddexp(0, -y * z)) + 0.5 * lam * (w @ w)


# ---- S6 / S6c RK4 -------------------------------------------------------------------------------
def rhs(y, W):
    return jnp.tanh(W @ y)


def rk4_inline_step(y, W, h):
    k1 = jnp.tanh(W @ y)
    k2 = jnp.tanh(W @ (y + 0.5 * h * k1))
    k3 = jnp.tanh(W @ (y + 0.5 * h * k2))
    k4 = jnp.tanh(W @ (y + h * k3))
    return y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)


def rk4_rhs_step(y, W, h):
    k1 = rhs(y, W)
    k2 = rhs(y + 0.5 * h * k1, W)
    k3 = rhs(y + 0.5 * h * k2, W)
    k4 = rhs(y + h * k3, W)
    return y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)


def rk4(step):
    def eager(y, W, h, steps):
        for _ in range(steps):
            y = step(y, W, h)
        return jnp.sum(y ** 2)

    def jitted(y, W, h, steps):
        y = lax.fori_loop(0, steps, lambda _, y: step(y, W, h), y)
        return jnp.sum(y ** 2)
    return eager, jitted


PROGRAMS = {                        # key: (eager, jit)
    "S1": looped(heat_step), "S1c": looped(heat_copy_step), "S2": (gp_nll, gp_nll),
    "S3": lstm(lstm_inline_step), "S3c": lstm(lstm_cell_step), "S4": (nbody_eager, nbody_jit),
    "S5": (logistic, logistic), "S6": rk4(rk4_inline_step), "S6c": rk4(rk4_rhs_step),
}


# ---- building the timed callables ----------------------------------------------------------------
def _convert(args, stack_lists):
    """NumPy arrays as JAX arrays (lists of them stacked for jit); Python numbers kept."""
    out = []
    for a in args:
        if isinstance(a, list):
            out.append(jnp.stack(a) if stack_lists else [jnp.asarray(x) for x in a])
        elif hasattr(a, "dtype") and getattr(a, "ndim", 0) > 0:
            out.append(jnp.asarray(a))
        else:
            out.append(a)
    return out


def _to_numpy(grads):
    import numpy as np
    return tuple(np.asarray(g) for g in grads)


def eager(key, args, argnums):
    """A zero-argument callable: jax.grad of the eager program, the gradient as NumPy."""
    g = jax.grad(PROGRAMS[key][0], argnums=tuple(argnums))
    jargs = _convert(args, stack_lists=False)
    return lambda: _to_numpy(jax.block_until_ready(g(*jargs)))


def jitted(key, args, argnums):
    """A zero-argument callable running jax.jit(jax.grad(jit program)); nothing is compiled
    until its first call (the caller times that call as the compile). Python ints (trip
    counts) are static arguments."""
    static = tuple(i for i, a in enumerate(args) if isinstance(a, int))
    g = jax.jit(jax.grad(PROGRAMS[key][1], argnums=tuple(argnums)), static_argnums=static)
    jargs = _convert(args, stack_lists=True)
    return lambda: _to_numpy(jax.block_until_ready(g(*jargs)))
