"""Session 32 red team: checkpointed loops written the way users write them (helpers
returning tuples, in-place slice updates, print, dict/tuple/list carries, loops reading
the loop variable, helpers that loop, nested and sequential marked loops, a marked loop
in a branch, float32, reductions with axis/keepdims), each next to the same loop without
the marker. The snapshot count is the checkpointed function's last argument."""
import random

import numpy as np

from transform import checkpointed


def _step(u, k):
    lap = np.zeros_like(u)
    lap[1:-1] = u[2:] - 2 * u[1:-1] + u[:-2]
    return u + 0.1 * k * lap, np.sum(lap ** 2)

def heat_tuple(u, k, n, s):
    acc = 0.0
    for t in checkpointed(range(n), snapshots=s):
        u, e = _step(u, k)
        acc = acc + e * 0.01
    return np.sum(u ** 2) + acc

def heat_tuple_plain(u, k, n):
    acc = 0.0
    for t in range(n):
        u, e = _step(u, k)
        acc = acc + e * 0.01
    return np.sum(u ** 2) + acc

def inplace(u, k, n, s):
    u = u.copy()
    for t in checkpointed(range(n), snapshots=s):
        u[1:-1] += 0.1 * k * (u[2:] - 2 * u[1:-1] + u[:-2])
        if t % 3 == 0:
            print("step", t)
    return np.sum(u ** 3)

def inplace_plain(u, k, n):
    u = u.copy()
    for t in range(n):
        u[1:-1] += 0.1 * k * (u[2:] - 2 * u[1:-1] + u[:-2])
        if t % 3 == 0:
            print("step", t)
    return np.sum(u ** 3)

def dictstate(p, x, n, s):
    st = {"h": x, "c": np.zeros_like(x)}
    for t in checkpointed(range(n), snapshots=s):
        h = np.tanh(p["W"] @ st["h"] + p["b"] * t)
        st = {"h": h, "c": st["c"] + h}
    return np.sum(st["c"] ** 2)

def dictstate_plain(p, x, n):
    st = {"h": x, "c": np.zeros_like(x)}
    for t in range(n):
        h = np.tanh(p["W"] @ st["h"] + p["b"] * t)
        st = {"h": h, "c": st["c"] + h}
    return np.sum(st["c"] ** 2)

def listacc(x, w, n, s):
    outs = []
    for t in checkpointed(range(n), snapshots=s):
        x = np.sin(w * x) + 0.1 * t
        outs.append(np.sum(x))
    return sum(outs)

def listacc_plain(x, w, n):
    outs = []
    for t in range(n):
        x = np.sin(w * x) + 0.1 * t
        outs.append(np.sum(x))
    return sum(outs)

def _inner(x, w):
    for j in range(3):
        x = x * w + np.cos(x)
    return x

def helper_loops(x, w, n, s):
    for t in checkpointed(range(n), snapshots=s):
        x = _inner(x, w) * 0.5
    return np.sum(x)

def helper_loops_plain(x, w, n):
    for t in range(n):
        x = _inner(x, w) * 0.5
    return np.sum(x)

def nested(x, w, n, s):
    for i in checkpointed(range(n), snapshots=s):
        for j in checkpointed(range(3), snapshots=2):
            x = np.tanh(x * w + 0.1 * j)
    return np.sum(x)

def nested_plain(x, w, n):
    for i in range(n):
        for j in range(3):
            x = np.tanh(x * w + 0.1 * j)
    return np.sum(x)

def two_loops(x, w, n, s):
    for t in checkpointed(range(n), snapshots=s):
        x = x * w + 0.1
    y = x
    for t in checkpointed(range(n), snapshots=s):
        y = np.sin(y) * w
    return np.sum(x * y)

def two_loops_plain(x, w, n):
    for t in range(n):
        x = x * w + 0.1
    y = x
    for t in range(n):
        y = np.sin(y) * w
    return np.sum(x * y)

def in_branch(x, w, n, s):
    if np.sum(x) > 0:
        for t in checkpointed(range(n), snapshots=s):
            x = x * w - 0.1 * x ** 2
    else:
        x = x * 2
    return np.sum(x ** 2)

def in_branch_plain(x, w, n):
    if np.sum(x) > 0:
        for t in range(n):
            x = x * w - 0.1 * x ** 2
    else:
        x = x * 2
    return np.sum(x ** 2)

def over_rows(xs, w, s):
    h = np.zeros(xs.shape[1])
    for x in checkpointed(xs, snapshots=s):
        h = np.tanh(w @ h + x)
    return np.sum(h)

def over_rows_plain(xs, w):
    h = np.zeros(xs.shape[1])
    for x in xs:
        h = np.tanh(w @ h + x)
    return np.sum(h)

def maxmin_where(x, n, s):
    m = 0.5
    for t in checkpointed(range(n), snapshots=s):
        x = np.where(x > 0.2, x * 0.9, x + 0.05)
        x = np.maximum(x, -1.0)
        m = max(float(np.max(x)), 0.5)
    return np.sum(x) * m

def maxmin_where_plain(x, n):
    m = 0.5
    for t in range(n):
        x = np.where(x > 0.2, x * 0.9, x + 0.05)
        x = np.maximum(x, -1.0)
        m = max(float(np.max(x)), 0.5)
    return np.sum(x) * m

def tuplestate(a, b, n, s):
    st = (a, b)
    for t in checkpointed(range(n), snapshots=s):
        a, b = st
        st = (a * np.cos(b), b + 0.1 * a)
    return np.sum(st[0]) + np.sum(st[1] ** 2)

def tuplestate_plain(a, b, n):
    st = (a, b)
    for t in range(n):
        a, b = st
        st = (a * np.cos(b), b + 0.1 * a)
    return np.sum(st[0]) + np.sum(st[1] ** 2)

def f32loop(x, w, n, s):
    for t in checkpointed(range(n), snapshots=s):
        x = np.tanh(x * w).astype(np.float32)
    return np.sum(x)

def f32loop_plain(x, w, n):
    for t in range(n):
        x = np.tanh(x * w).astype(np.float32)
    return np.sum(x)

def reduce_axis(X, n, s):
    for t in checkpointed(range(n), snapshots=s):
        X = X - 0.1 * np.mean(X, axis=0, keepdims=True) * X.sum(axis=1, keepdims=True)
    return np.sum(X ** 2)

def reduce_axis_plain(X, n):
    for t in range(n):
        X = X - 0.1 * np.mean(X, axis=0, keepdims=True) * X.sum(axis=1, keepdims=True)
    return np.sum(X ** 2)

def listcarry(ws, x, n, s):
    for t in checkpointed(range(n), snapshots=s):
        ws = [w * x + 0.1 for w in ws]
        x = x * 0.9
    return sum(w ** 2 for w in ws)

def listcarry_plain(ws, x, n):
    for t in range(n):
        ws = [w * x + 0.1 for w in ws]
        x = x * 0.9
    return sum(w ** 2 for w in ws)


def intcarry(x, n, s):
    acc = 0
    for t in checkpointed(range(n), snapshots=s):
        acc = acc + np.sum(x ** (t + 1))
    return acc

def intcarry_plain(x, n):
    acc = 0
    for t in range(n):
        acc = acc + np.sum(x ** (t + 1))
    return acc

def cond_assign(x, n, s):
    best = x[0]
    for t in checkpointed(range(n), snapshots=s):
        x = x * 0.8 + np.sin(x)
        if x[0] > best:
            best = x[0]
    return best + np.sum(x)

def cond_assign_plain(x, n):
    best = x[0]
    for t in range(n):
        x = x * 0.8 + np.sin(x)
        if x[0] > best:
            best = x[0]
    return best + np.sum(x)

def index_store(x, n, s):
    y = np.zeros(n)
    for t in checkpointed(range(n), snapshots=s):
        y[t] = np.sum(x) * t
        x = np.cos(x)
    return np.sum(y ** 2)

def index_store_plain(x, n):
    y = np.zeros(n)
    for t in range(n):
        y[t] = np.sum(x) * t
        x = np.cos(x)
    return np.sum(y ** 2)

def shrinking(x, n, s):
    for t in checkpointed(range(n), snapshots=s):
        x = x[1:] * 2.0 + x[:-1]
    return np.sum(x ** 2)

def shrinking_plain(x, n):
    for t in range(n):
        x = x[1:] * 2.0 + x[:-1]
    return np.sum(x ** 2)

def invariant_dict(p, x, n, s):
    for t in checkpointed(range(n), snapshots=s):
        x = np.tanh(p["W"] @ x) + p["b"]
    return np.sum(x)

def invariant_dict_plain(p, x, n):
    for t in range(n):
        x = np.tanh(p["W"] @ x) + p["b"]
    return np.sum(x)

def seq_grad_rev(xs, w, s):
    h = 0.0 * xs[0]
    for t in checkpointed(range(len(xs) - 1, -1, -1), snapshots=s):
        h = np.tanh(w * h + xs[t])
    return np.sum(h)

def seq_grad_rev_plain(xs, w):
    h = 0.0 * xs[0]
    for t in range(len(xs) - 1, -1, -1):
        h = np.tanh(w * h + xs[t])
    return np.sum(h)

def matrix_power(A, n, s):
    P = np.eye(A.shape[0])
    for t in checkpointed(range(n), snapshots=s):
        P = P @ A
    return np.trace(P)

def matrix_power_plain(A, n):
    P = np.eye(A.shape[0])
    for t in range(n):
        P = P @ A
    return np.trace(P)


def heat_default(u, k, n, s=3):
    for t in checkpointed(range(n), snapshots=s):
        u = u + 0.1 * k * (np.roll(u, 1) - 2 * u + np.roll(u, -1))
    return np.sum(u ** 2)


def vecout(x, w, n, s):
    for t in checkpointed(range(n), snapshots=s):
        x = np.cos(x) * w
    return x


def rows_out(xs, w, s):
    h = np.zeros(xs.shape[1])
    for x in checkpointed(xs, snapshots=s):
        h = np.tanh(w @ h + x)
    return h


def over_list(xs, s):
    h = 0.0
    for x in checkpointed(xs, snapshots=s):
        h = h * 0.5 + x ** 2
    return h


def _marked_helper(x, n):
    for t in checkpointed(range(n), snapshots=2):
        x = np.sin(x) * 1.1
    return x


def outer_marked(x, n):
    for t in checkpointed(range(n), snapshots=2):
        x = _marked_helper(x, 2) + 0.1 * x
    return x


RNG = np.random.default_rng(0)


def draws_global_numpy(x, n, s):
    for t in checkpointed(range(n), snapshots=s):
        x = np.tanh(x * (1.0 + np.random.normal(size=x.shape)))
    return np.sum(x)


def draws_stdlib(x, n, s):
    for t in checkpointed(range(n), snapshots=s):
        x = x * (1 + random.gauss(0, 1))
    return np.sum(x)


def draws_module_generator(x, n, s):
    for t in checkpointed(range(n), snapshots=s):
        x = x * (1 + RNG.normal())
    return np.sum(x)


def _scale(g):
    return 1.5 if g is None or isinstance(g, np.random.PCG64) else 1.0 + 0.1 * g.random()


def reads_generator_invariant(x, g, n, s):
    for t in checkpointed(range(n), snapshots=s):
        x = x * _scale(g)
    return np.sum(x)


def reads_generator_in_a_dict(x, d, n, s):
    for t in checkpointed(range(n), snapshots=s):
        x = x * _scale(d["g"]) * d["scale"]
    return np.sum(x)


def reads_generator_carried(x, g, n, s):
    for t in checkpointed(range(n), snapshots=s):
        x = x * _scale(g)
        g = g
    return np.sum(x)


def plain_containers(x, pair, d, n, s):
    for t in checkpointed(range(n), snapshots=s):
        x = x * pair[0] + pair[1][0] * d["a"]
        pair = (pair[0] * 0.9, [pair[1][0] + 0.1])
    return np.sum(x ** 2)
