"""red39: physics simulation: molecular energies (forces, normal modes), RK4 and
symplectic integrators differentiated through, implicit solves (Kepler's equation, a
loaded spring network), an implicit heat step."""
from dataclasses import dataclass
from functools import partial
from typing import NamedTuple

import numpy as np
from scipy.linalg import solve


class MorseParams(NamedTuple):
    D: float = 1.0
    a: float = 1.5
    r0: float = 1.0


MORSE = MorseParams()


def lj_cluster(x, sigma=1.0, eps=1.0):
    """Lennard-Jones energy of a small cluster, x flat (n*3), pairs by a double loop."""
    pos = x.reshape(-1, 3)
    n = pos.shape[0]
    e = 0.0
    for i in range(n):
        for j in range(i + 1, n):
            d = pos[i] - pos[j]
            r2 = d @ d
            s6 = (sigma * sigma / r2) ** 3
            e = e + 4 * eps * (s6 * s6 - s6)
    return e


def water_energy(x, k_b=450.0, k_a=55.0):
    """harmonic bonds and angle of a water-like molecule (O, H, H), x flat (9)."""
    O, H1, H2 = x[0:3], x[3:6], x[6:9]
    v1, v2 = H1 - O, H2 - O
    r1, r2 = np.linalg.norm(v1), np.linalg.norm(v2)
    cos_t = v1 @ v2 / (r1 * r2)
    theta = np.arccos(cos_t)
    return k_b * ((r1 - 0.96) ** 2 + (r2 - 0.96) ** 2) + k_a * (theta - 1.824) ** 2


def morse_pairs(x, p=MORSE):
    """Morse energy over every pair, indices from np.triu_indices."""
    pos = x.reshape(-1, 2)
    i, j = np.triu_indices(pos.shape[0], k=1)
    d = pos[i] - pos[j]
    r = np.sqrt(np.sum(d * d, axis=1))
    return np.sum(p.D * (1 - np.exp(-p.a * (r - p.r0))) ** 2)


@dataclass
class Charges:
    q: np.ndarray
    soft: float = 0.1


def coulomb_columns(x, charges):
    """softened Coulomb energy from coordinate columns x[:, 0], x[:, 1]."""
    pos = x.reshape(-1, 2)
    dx = pos[:, 0][:, None] - pos[:, 0][None, :]
    dy = pos[:, 1][:, None] - pos[:, 1][None, :]
    r = np.sqrt(dx ** 2 + dy ** 2 + charges.soft ** 2)
    qq = np.outer(charges.q, charges.q)
    mask = 1.0 - np.eye(len(charges.q))
    return 0.5 * np.sum(qq * mask / r)


def _morse_forces(pos, p):
    """analytic forces of a Morse chain (the user's own -grad)."""
    d = pos[1:] - pos[:-1]
    ex = np.exp(-p.a * (d - p.r0))
    dE = 2 * p.D * p.a * (1 - ex) * ex
    F = np.zeros_like(pos)
    F[:-1] += dE
    F[1:] -= dE
    return F


def force_matching(pos, ref):
    """force matching loss: squared difference of analytic forces from reference ones."""
    F = _morse_forces(pos, MORSE)
    return np.sum((F - ref) ** 2)


def rotor_energy(angle, x):
    """a rigid rotation of a point set (matrix built from cos and sin), then a
    harmonic energy against fixed anchors: a float angle."""
    c, s = np.cos(angle), np.sin(angle)
    R = np.array([[c, -s], [s, c]])
    y = x @ R.T
    anchors = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.5]])
    return 0.5 * np.sum((y - anchors) ** 2) + 0.1 * np.cos(3 * angle)


def _rk4(f, y0, ts, args=()):
    ys = [y0]
    y = y0
    for k in range(len(ts) - 1):
        h = ts[k + 1] - ts[k]
        t = ts[k]
        k1 = f(t, y, *args)
        k2 = f(t + h / 2, y + h / 2 * k1, *args)
        k3 = f(t + h / 2, y + h / 2 * k2, *args)
        k4 = f(t + h, y + h * k3, *args)
        y = y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        ys.append(y)
    return np.stack(ys)


def _pendulum_rhs(t, y, g, L, c):
    return np.array([y[1], -g / L * np.sin(y[0]) - c * y[1]])


def pendulum_fit(params, obs):
    """fit (g/L's g, L, damping) by an RK4 trajectory with the parameters passed as
    *args through a generic integrator."""
    g, L, c = params[0], params[1], params[2]
    ts = np.linspace(0.0, 2.0, 11)
    ys = _rk4(_pendulum_rhs, np.array([0.8, 0.0]), ts, args=(g, L, c))
    return np.sum((ys[:, 0] - obs) ** 2)


def pendulum_y0(y0):
    ts = np.linspace(0.0, 1.0, 6)
    ys = _rk4(_pendulum_rhs, y0, ts, args=(9.81, 1.0, 0.1))
    return ys[-1, 0] ** 2 + 0.5 * ys[-1, 1] ** 2


def _kepler_rhs(t, y, mu=1.0):
    r = y[:2]
    v = y[2:]
    a = -mu * r / np.linalg.norm(r) ** 3
    return np.concatenate([v, a])


def kepler_trajectory(y0):
    """an RK4 orbit with the right-hand side made by functools.partial: the positions
    (a vector output)."""
    ts = np.linspace(0.0, 1.0, 9)
    ys = _rk4(partial(_kepler_rhs, mu=1.2), y0, ts)
    return ys[:, :2].reshape(-1)


def symplectic_while(k, x0=1.0, v0=0.0, dt=0.05, T=1.0):
    """symplectic Euler with a float clock in a while loop: the energy-like quantity
    at the end, as a function of the stiffness k (a float)."""
    x, v, t = x0, v0, 0.0
    while t < T - 1e-9:
        v = v - dt * k * x
        x = x + dt * v
        t += dt
    return x * x + v * v / k


def damped_until_quiet(c, y0):
    """integrate a damped oscillator until its energy drops below a threshold (a
    break), at most 200 steps; return the time-weighted energy sum."""
    x, v = y0[0], y0[1]
    total = 0.0
    for step in range(200):
        a = -4.0 * x - c * v
        v = v + 0.02 * a
        x = x + 0.02 * v
        energy = 0.5 * v * v + 2.0 * x * x
        total = total + 0.02 * energy
        if energy < 1e-3:
            break
    return total


def kepler_equation(e, M=1.1):
    """solve E - e sin E = M by Newton (while with a tolerance); return the radius
    1 - e cos E: a float eccentricity."""
    E = M
    for _ in range(50):
        dE = (E - e * np.sin(E) - M) / (1 - e * np.cos(E))
        E = E - dE
        if abs(dE) < 1e-14:
            break
    return 1 - e * np.cos(E)


def spring_network_compliance(k, load):
    """a 1D chain of springs fixed at the left: stiffness matrix assembled in a loop,
    displacement by scipy.linalg.solve, the compliance load @ u."""
    n = len(k)
    K = np.zeros((n, n))
    for i in range(n):
        K[i, i] += k[i]
        if i > 0:
            K[i - 1, i - 1] += k[i]
            K[i - 1, i] -= k[i]
            K[i, i - 1] -= k[i]
    u = solve(K, load)
    return load @ u


def heat_implicit_kappa(kappa, u0, steps=3):
    """backward Euler for the heat equation, tridiagonal matrix from np.diag with
    offsets; the final state's energy as a function of kappa (a float)."""
    n = len(u0)
    A = np.diag(np.full(n, 1 + 2 * kappa)) + np.diag(np.full(n - 1, -kappa), 1) \
        + np.diag(np.full(n - 1, -kappa), -1)
    u = u0
    for _ in range(steps):
        u = solve(A, u)
    return np.sum(u ** 2)


def normal_mode_energy(x):
    """a triatomic chain's energy with a harmonic and a quartic term (for a Hessian's
    normal modes), coordinates sliced as x[::2], x[1::2]."""
    xs, ys = x[::2], x[1::2]
    dx, dy = np.diff(xs), np.diff(ys)
    r = np.sqrt(dx ** 2 + dy ** 2)
    return np.sum(0.5 * (r - 1.0) ** 2 + 0.1 * (r - 1.0) ** 4) + 0.05 * np.sum(ys ** 2)


def velocity_trace(v0, dt=0.1):
    """a bouncing projectile's heights stacked from a list: a vector output."""
    x = np.array([0.0, 1.0])
    v = v0.copy()
    heights = []
    for _ in range(6):
        v[1] -= 9.81 * dt
        x = x + dt * v
        heights.append(x[1])
    return np.stack(heights)


def chemical_equilibrium(logK):
    """extent of A + B <-> C with K = exp(logK): bisection then Newton polish on
    K (a - x)(b - x) = x, a float."""
    a, b = 1.0, 0.7
    K = np.exp(logK)
    lo, hi = 0.0, 0.7
    for _ in range(30):
        mid = 0.5 * (lo + hi)
        if K * (a - mid) * (b - mid) - mid > 0:
            lo = mid
        else:
            hi = mid
    x = 0.5 * (lo + hi)
    for _ in range(4):
        r = K * (a - x) * (b - x) - x
        dr = -K * (a - x) - K * (b - x) - 1
        x = x - r / dr
    return x
