"""Programs a red team wrote against the unpacked tuple display (session 31,
transform/lowering/normalize.py `unpacked_display`): `a, b = x, y` and
`h, c = cell(...)` with an inlined helper returning a pair bind the targets to the
display's atoms without building the tuple. Swaps and rotations through copies, helpers
returning a parameter unchanged or one value twice, nested defs with early returns,
chained and list targets, pairs iterated by `for a, b in ...`, in-place updates after
the unpack. All passed; each runs against finite differences under every policy."""
import numpy as np

from .case import case, floats, mixed


def _lstm_cell(x, h, c, W, U):
    z = np.tanh(W @ x + U @ h)
    c = z * c + np.sin(z) * 0.5
    return z * np.tanh(c), c


@case(mixed(floats((3,)), floats((3, 3), (3, 3), scale=0.5)), wrt=(0, 1, 2))
def lstm_cell_helper_history(x, W, U):
    h = c = np.zeros(3)
    hs = []
    for _ in range(3):
        h, c = _lstm_cell(x, h, c, W, U)
        hs.append(h)
    return np.sum(hs[0] * hs[-1]) + np.sum(c)


def _leapfrog(q, p, dt):
    p_half = p - 0.5 * dt * np.sin(q)
    q_new = q + dt * p_half
    return q_new, p_half - 0.5 * dt * np.sin(q_new)


@case(floats((4,), (4,), ()), wrt=(0, 1, 2))
def pendulum_leapfrog(q, p, dt):
    for _ in range(4):
        q, p = _leapfrog(q, p, dt)
    return np.sum(np.cos(q)) + 0.5 * np.sum(p ** 2)


def _keep_previous(cur, prev):
    return np.tanh(cur + 0.5 * prev), cur       # returns its parameter unchanged


@case(floats((4,), (4,)), wrt=(0, 1))
def second_order_recurrence(x, y):
    cur, prev = x, y
    for _ in range(3):
        cur, prev = _keep_previous(cur, prev)
    return np.sum(cur * prev)


def _both(v):
    w = np.sin(v) * 0.9
    return w, w                                 # one value in both slots


@case(floats((3,)), wrt=0)
def one_value_twice(x):
    a = x
    for _ in range(3):
        a, b = _both(a)
        a = a * b + 0.1
    return np.sum(a)


@case(floats((5,), (5,)), wrt=(0, 1))
def double_buffer_swap(u0, k):
    u, un = np.array(u0), np.zeros_like(u0)     # (`u0.copy()`: see double_buffers.py)
    for _ in range(3):
        un[1:-1] = u[1:-1] + 0.1 * k[1:-1] * (u[2:] - 2 * u[1:-1] + u[:-2])
        un[0] = u[0] * k[0]
        un[-1] = u[-1]
        u, un = un, u
    return np.sum(u ** 2)


@case(floats((3,), (3,), (3,)), wrt=(0, 1, 2))
def rotations_and_chains(x, y, z):
    a, b, c = x, y, z
    for _ in range(2):
        a, b, c = c * 0.5, a, np.sin(b)
    pair = p, q = a + b, c
    [r, s] = q, p
    return np.sum(pair[0] * r) + np.sum(pair[1] * s)


@case(floats((3,), (3,)), wrt=(0, 1))
def pairs_in_a_loop_and_comprehension(x, y):
    total = 0.0
    for a, b in [(x, y), (y * 2.0, x), (np.sin(x), y)]:
        a, b = b, a * b
        total = total + np.sum(a ** 2 * b)
    return total + sum(np.sum(p * q) for p, q in zip([x, y], [y, x]))


@case(floats((3,), ()), wrt=(0, 1))
def nested_def_early_return(x, t):
    def step(v, k):
        if k % 2:
            return v * t, v
        return np.tanh(v), v * 0.5
    a, b = x, x
    for k in range(4):
        a, b = step(a + b, k)
    return np.sum(a * b)


@case(floats((4,), ()), wrt=(0, 1))
def scalar_fibonacci_weights(x, r):
    a, b = 1.0, r
    s = 0.0
    for k in range(4):
        a, b = b, a + r * b
        s += a * x[k]
    return s * b


@case(floats((4,), (4,)), wrt=(0, 1))
def fresh_copies_written_after_swap(x, y):
    a = np.exp(x)
    b = np.tanh(y)
    a, b = b, a
    a[1:] = b[:3] * 2.0
    b[0] = 1.5
    a += b * 0.5
    return np.sum(a ** 2) + np.sum(b ** 3)
