"""Session 32 red team (red), more checkpointed loops next to their unmarked twins: a
body writing into the argument itself (the plain twin copies it: the gradient must not
write into the caller's array), a work buffer written with `buf[:] = ...`, a carry
starting as None, a marked loop inside a plain loop, inside a while loop on values, in
a helper called twice, a carry changing from int to array, the iterable read whole in the body, a
dataclass carry, leapfrog, dict and list carries written in place."""
import random
from dataclasses import dataclass

import numpy as np

from transform import checkpointed


def writes_arg(u, k, n, s):
    for t in checkpointed(range(n), snapshots=s):
        u[1:-1] += 0.1 * k * (u[2:] - 2 * u[1:-1] + u[:-2])
    return np.sum(u ** 2)


def writes_arg_plain(u, k, n):
    u = u.copy()
    for t in range(n):
        u[1:-1] += 0.1 * k * (u[2:] - 2 * u[1:-1] + u[:-2])
    return np.sum(u ** 2)


def workbuf(u, n, s):
    buf = np.zeros_like(u)
    for t in checkpointed(range(n), snapshots=s):
        buf[:] = np.sin(u)
        u = buf * 0.9 + u * 0.1
    return np.sum(u) + np.sum(buf)


def workbuf_plain(u, n):
    buf = np.zeros_like(u)
    for t in range(n):
        buf[:] = np.sin(u)
        u = buf * 0.9 + u * 0.1
    return np.sum(u) + np.sum(buf)


def none_start(x, n, s):
    best = None
    for t in checkpointed(range(n), snapshots=s):
        x = np.cos(x) + 0.5 * x
        v = np.sum(x)
        if best is None or v > best:
            best = v
    return best


def none_start_plain(x, n):
    best = None
    for t in range(n):
        x = np.cos(x) + 0.5 * x
        v = np.sum(x)
        if best is None or v > best:
            best = v
    return best


def epochs(x, w, n, s):
    for e in range(2):
        h = x
        for t in checkpointed(range(n), snapshots=s):
            h = np.tanh(w * h + 0.1 * e)
        x = x + 0.1 * h
    return np.sum(x)


def epochs_plain(x, w, n):
    for e in range(2):
        h = x
        for t in range(n):
            h = np.tanh(w * h + 0.1 * e)
        x = x + 0.1 * h
    return np.sum(x)


def _sim(x, w, n, s):
    for t in checkpointed(range(n), snapshots=s):
        x = np.sin(x * w)
    return x


def calls_marked(x, w, n, s):
    y = _sim(x, w, n, s)
    z = _sim(y * 2, w, n + 1, s)
    return np.sum(y * z)


def calls_marked_plain(x, w, n):
    y = x
    for t in range(n):
        y = np.sin(y * w)
    z = y * 2
    for t in range(n + 1):
        z = np.sin(z * w)
    return np.sum(y * z)


def while_outer(x, n, s):
    i = 0
    while np.sum(x) < 3.0 and i < 5:
        for t in checkpointed(range(n), snapshots=s):
            x = x * 1.1 + 0.05
        i += 1
    return np.sum(x ** 2)


def while_outer_plain(x, n):
    i = 0
    while np.sum(x) < 3.0 and i < 5:
        for t in range(n):
            x = x * 1.1 + 0.05
        i += 1
    return np.sum(x ** 2)


def typechange(x, n, s):
    acc = 0
    for t in checkpointed(range(n), snapshots=s):
        acc = acc + x * t
        x = x * 0.9
    return np.sum(acc)


def typechange_plain(x, n):
    acc = 0
    for t in range(n):
        acc = acc + x * t
        x = x * 0.9
    return np.sum(acc)


@dataclass
class State:
    pos: np.ndarray
    vel: np.ndarray


def iter_and_read(xs, s):
    h = np.zeros(xs.shape[1])
    for x in checkpointed(xs, snapshots=s):
        h = np.tanh(h + x - xs.mean(axis=0))
    return np.sum(h ** 2)


def iter_and_read_plain(xs):
    h = np.zeros(xs.shape[1])
    for x in xs:
        h = np.tanh(h + x - xs.mean(axis=0))
    return np.sum(h ** 2)


def dc(x, v, n, s):
    st = State(x, v)
    for t in checkpointed(range(n), snapshots=s):
        st = State(st.pos + 0.1 * st.vel, st.vel - 0.1 * np.sin(st.pos))
    return np.sum(st.pos ** 2) + np.sum(st.vel)


def dc_plain(x, v, n):
    st = State(x, v)
    for t in range(n):
        st = State(st.pos + 0.1 * st.vel, st.vel - 0.1 * np.sin(st.pos))
    return np.sum(st.pos ** 2) + np.sum(st.vel)


def leapfrog(q, p, n, s):
    dt = 0.1
    for t in checkpointed(range(n), snapshots=s):
        p = p - 0.5 * dt * q
        q = q + dt * p
        p = p - 0.5 * dt * q
    return np.sum(q * p)


def leapfrog_plain(q, p, n):
    dt = 0.1
    for t in range(n):
        p = p - 0.5 * dt * q
        q = q + dt * p
        p = p - 0.5 * dt * q
    return np.sum(q * p)


def dict_inplace(x, n, s):
    st = {"a": x.copy(), "b": 0.0}
    for t in checkpointed(range(n), snapshots=s):
        st["a"] = np.sin(st["a"]) * 1.2
        st["b"] += np.sum(st["a"])
    return st["b"]


def dict_inplace_plain(x, n):
    st = {"a": x.copy(), "b": 0.0}
    for t in range(n):
        st["a"] = np.sin(st["a"]) * 1.2
        st["b"] += np.sum(st["a"])
    return st["b"]


def list_inplace(x, n, s):
    hist = [x]
    for t in checkpointed(range(n), snapshots=s):
        hist.append(np.cos(hist[-1]) * 0.9)
    return np.sum(np.stack(hist) ** 2)


def list_inplace_plain(x, n):
    hist = [x]
    for t in range(n):
        hist.append(np.cos(hist[-1]) * 0.9)
    return np.sum(np.stack(hist) ** 2)


def _numpy_noise(x):
    return x * (1.0 + 0.5 * np.random.normal(size=x.shape))


def _stdlib_noise(x):
    return x * (1.0 + 0.5 * random.gauss(0.0, 1.0))


def _gauss_pair(x):
    # NumPy's legacy gauss caches its second draw: a state change in has_gauss alone
    return x * (1.0 + 0.5 * np.random.standard_normal())


def helper_draws_numpy(x, n, s):
    for t in checkpointed(range(n), snapshots=s):
        x = np.tanh(_numpy_noise(x))
    return np.sum(x)


def helper_draws_stdlib(x, n, s):
    for t in checkpointed(range(n), snapshots=s):
        x = np.tanh(_stdlib_noise(x))
    return np.sum(x)


def helper_draws_gauss_pair(x, n, s):
    for t in checkpointed(range(n), snapshots=s):
        x = np.tanh(_gauss_pair(x))
    return np.sum(x)


def marker_elsewhere(x, n):
    steps = checkpointed(range(n), snapshots=2)
    for t in steps:
        x = x * 1.1
    return x
