"""Session 35 red team (red35) programs, simulations: integrators with energies kept in
lists, spring networks, heat and wave equations on slices, in-place-looking updates,
while loops that break, dataclass states."""
from dataclasses import dataclass

import numpy as np

from transform import checkpointed

VERBOSE = False


def _forces(q, k=1.0):
    return -k * q - 0.1 * q ** 3


def leapfrog_energy(q0, p0, dt=0.1, n=5):
    q, p = q0, p0
    energies = []
    for i in range(n):
        p = p + 0.5 * dt * _forces(q)
        q = q + dt * p
        p = p + 0.5 * dt * _forces(q)
        e = 0.5 * np.sum(p ** 2) + 0.5 * np.sum(q ** 2) + 0.025 * np.sum(q ** 4)
        energies.append(e)
    return np.mean(energies)


def leapfrog_final(q0, p0):
    q, p = q0.copy(), p0.copy()
    dt = 0.05
    for _ in range(4):
        p -= 0.5 * dt * np.sin(q)
        q += dt * p
        p -= 0.5 * dt * np.sin(q)
    return np.concatenate([q, p])


def leapfrog_dt(dt, q0):
    q, p = q0, 0.0
    for i in range(6):
        p = p - 0.5 * dt * q
        q = q + dt * p
        p = p - 0.5 * dt * q
    return 0.5 * p ** 2 + 0.5 * q ** 2


def spring_network(x, edges=((0, 1), (1, 2), (2, 3), (3, 0), (0, 2)), k=2.0):
    pos = x.reshape(-1, 2)
    E = 0.0
    for i, j in edges:
        d = np.linalg.norm(pos[i] - pos[j])
        E += 0.5 * k * (d - 1.0) ** 2
    return E


def spring_vectorised(pos, rest):
    i = np.array([0, 1, 2, 0])
    j = np.array([1, 2, 3, 3])
    d = pos[i] - pos[j]
    length = np.sqrt(np.sum(d * d, axis=1))
    return 0.5 * np.sum((length - rest) ** 2)


def spring_forces(x):
    pos = x.reshape(3, 2)
    f = np.zeros_like(pos)
    for i in range(3):
        for j in range(i + 1, 3):
            d = pos[i] - pos[j]
            r = np.linalg.norm(d)
            fij = -(r - 1.0) * d / r
            f[i] += fij
            f[j] -= fij
    return f.ravel()


def heat_steps(u0, r=0.2, steps=4):
    u = u0.copy()
    for _ in range(steps):
        u[1:-1] = u[1:-1] + r * (u[2:] - 2 * u[1:-1] + u[:-2])
    return u


def heat_new_array(u0, kappa):
    u = u0
    for _ in range(3):
        lap = np.zeros_like(u)
        lap[1:-1] = u[2:] - 2 * u[1:-1] + u[:-2]
        u = u + kappa * lap
    return np.sum(u ** 2)


def heat_roll(u0):
    u = u0
    for _ in range(3):
        u = u + 0.1 * (np.roll(u, 1) - 2 * u + np.roll(u, -1))
    return u


def heat_2d(u0):
    u = u0.reshape(4, 4)
    for _ in range(2):
        inner = u[1:-1, 1:-1] + 0.1 * (u[2:, 1:-1] + u[:-2, 1:-1] + u[1:-1, 2:] + u[1:-1, :-2]
                                       - 4 * u[1:-1, 1:-1])
        u = np.pad(inner, 1)
    return u.ravel()


def wave_equation(c, u0):
    u_prev = u0
    u = u0
    for _ in range(4):
        u_next = np.zeros_like(u)
        u_next[1:-1] = 2 * u[1:-1] - u_prev[1:-1] + c ** 2 * (u[2:] - 2 * u[1:-1] + u[:-2])
        u_prev, u = u, u_next
    return np.sum(u ** 2)


def kick_first(x):
    x = x.copy()
    x[0] += 0.5 * x[1] ** 2
    x[-1] *= np.cos(x[0])
    return np.sum(x ** 3)


def kick_slices(x):
    y = x.copy()
    y[::2] += np.sin(y[1::2])
    y[1::2] *= 2.0
    return y


def euler_until(k, x0):
    t, x, v = 0.0, x0, 0.0
    dt = 0.05
    while True:
        a = -k * x - 0.2 * v
        v = v + dt * a
        x = x + dt * v
        t += dt
        if t > 0.5:
            break
    return x ** 2 + v ** 2


def bounce(v0, g=9.8):
    y, v = 1.0, v0
    dt = 0.02
    path = []
    for i in range(30):
        v = v - g * dt
        y = y + v * dt
        y = np.maximum(y, 0.0)
        path.append(y)
    return sum(path) * dt


def nbody_energy(x):
    pos = x.reshape(-1, 3)
    d = pos[:, None, :] - pos[None, :, :]
    r = np.sqrt(np.sum(d ** 2, axis=-1) + 0.01)
    iu = np.triu_indices(pos.shape[0], 1)
    return -np.sum(1.0 / r[iu]) + 0.5 * np.sum(pos ** 2)


def nbody_accel(x):
    pos = x.reshape(-1, 2)
    n = pos.shape[0]
    acc = []
    for i in range(n):
        a = np.zeros(2)
        for j in range(n):
            if i == j:
                continue
            d = pos[j] - pos[i]
            a = a + d / (np.dot(d, d) + 0.1) ** 1.5
        acc.append(a)
    return np.stack(acc).ravel()


@dataclass
class State:
    q: np.ndarray
    p: np.ndarray


def dc_hamiltonian(s):
    return 0.5 * np.sum(s.p ** 2) + np.sum(1 - np.cos(s.q))


def dc_integrate(q0):
    s = State(q0, np.zeros_like(q0))
    for _ in range(3):
        s = State(s.q + 0.1 * s.p, s.p - 0.1 * np.sin(s.q))
    return dc_hamiltonian(s)


def clipped_dynamics(x0):
    x = x0
    for _ in range(4):
        x = np.clip(x + 0.3 * np.tanh(x), -1.5, 1.5)
    return x


def pendulum_rk2(theta0, dt=0.1):
    th, om = theta0, 0.0
    for _ in range(5):
        k1t, k1o = om, -np.sin(th)
        th2, om2 = th + dt * k1t, om + dt * k1o
        th = th + 0.5 * dt * (k1t + om2)
        om = om + 0.5 * dt * (k1o - np.sin(th2))
    return 0.5 * om ** 2 - np.cos(th)


def chain_sag(y):
    """Hanging chain: gravity plus stretching, free ends at fixed x positions."""
    x = np.linspace(0.0, 1.0, y.shape[0] + 2)
    yy = np.concatenate(([0.0], y, [0.0]))
    seg = np.sqrt(np.diff(x) ** 2 + np.diff(yy) ** 2)
    return np.sum(10.0 * (seg - 0.2) ** 2) + np.sum(y)


def lotka_volterra(params, x0):
    a, b = params
    x, y = x0, 1.0
    out = []
    for _ in range(5):
        x, y = x + 0.1 * (a * x - x * y), y + 0.1 * (x * y - b * y)
        out.append(x)
    return np.array(out)


def diffusion_steps_while(u0):
    u = u0
    n = 0
    while np.max(np.abs(u)) > 0.3 and n < 20:
        u = 0.5 * u + 0.25 * (np.roll(u, 1) + np.roll(u, -1))
        n += 1
    return np.sum(u ** 2) * (n + 1)


def verlet_positions(x0, v0):
    x, v = x0, v0
    xs = [x]
    dt = 0.1
    a = -x ** 3
    for _ in range(3):
        x = x + v * dt + 0.5 * a * dt ** 2
        a_new = -x ** 3
        v = v + 0.5 * (a + a_new) * dt
        a = a_new
        xs.append(x)
    return np.array(xs).ravel()


def heat_checkpointed(u, kappa, n=12):
    """A long simulation loop marked for checkpointing, as the README shows it."""
    for t in checkpointed(range(n), snapshots=3):
        u = u + 0.1 * kappa * (np.roll(u, 1) - 2 * u + np.roll(u, -1))
        if t % 4 == 0:
            u = u * (1 - 0.01 * np.tanh(u))
    return np.sum(u ** 2 * np.arange(len(u)))


def leapfrog_checkpointed(q0, dt):
    q, p = q0, np.zeros_like(q0)
    for _ in checkpointed(range(8), snapshots=2):
        p = p - 0.5 * dt * np.sin(q)
        q = q + dt * p
        p = p - 0.5 * dt * np.sin(q)
    return np.sum(0.5 * p ** 2 - np.cos(q))
