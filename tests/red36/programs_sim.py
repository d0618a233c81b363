"""red36: simulations: ODE integrators with while loops and early exits, particle
systems, finite volumes, Verlet."""
from dataclasses import dataclass

import numpy as np


def rk4_step(f, y, t, h, *args):
    k1 = f(y, t, *args)
    k2 = f(y + h / 2 * k1, t + h / 2, *args)
    k3 = f(y + h / 2 * k2, t + h / 2, *args)
    k4 = f(y + h * k3, t + h, *args)
    return y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)


def _oscillator(y, t, omega):
    return np.array([y[1], -omega ** 2 * y[0] - 0.1 * y[1]])


def rk4_oscillator(y0, omega=1.3):
    y, t = y0, 0.0
    for _ in range(10):
        y = rk4_step(_oscillator, y, t, 0.1, omega)
        t += 0.1
    return y


def rk4_omega(omega):
    return np.sum(rk4_oscillator(np.array([1.0, 0.0]), omega) ** 2)


def adaptive_euler(y0, tol=1e-3):
    """Heun with a step-size controller: a while loop, step changes data-dependent."""
    t, y, h = 0.0, y0, 0.1
    steps = 0
    while t < 1.0 and steps < 50:
        f0 = -y + np.sin(t)
        y_e = y + h * f0
        y_h = y + h / 2 * (f0 + (-y_e + np.sin(t + h)))
        err = np.max(np.abs(y_h - y_e))
        if err > tol:
            h = h / 2
            steps += 1
            continue
        y, t = y_h, t + h
        steps += 1
    return np.sum(y ** 2)


def decay_until_threshold(k):
    y, t, dt = 1.0, 0.0, 0.01
    while y > 0.3:
        y = y - dt * k * y
        t += dt
        if t > 5:
            break
    return y * t


def projectile_range(v0, angle=0.7):
    x, y = 0.0, 0.0
    vx, vy = v0 * np.cos(angle), v0 * np.sin(angle)
    dt = 0.01
    for _ in range(2000):
        x_old, y_old = x, y
        vx, vy = vx - 0.05 * vx * dt, vy - (9.81 + 0.05 * vy) * dt
        x, y = x + vx * dt, y + vy * dt
        if y < 0:
            frac = y_old / (y_old - y)
            return x_old + frac * (x - x_old)
    return x


def particles_soft(pos):
    P = pos.reshape(-1, 2)
    n = len(P)
    E = 0.0
    for i in range(n):
        for j in range(i + 1, n):
            r2 = np.sum((P[i] - P[j]) ** 2) + 0.1
            E += 1.0 / r2 ** 3 - 1.0 / r2 ** 1.5
    return E


def particles_vectorised(P):
    diff = P[:, None, :] - P[None, :, :]
    r2 = (diff ** 2).sum(-1) + np.eye(len(P)) + 0.2
    inv = 1.0 / r2
    np.fill_diagonal(inv, 0.0)
    return 0.5 * np.sum(inv)


def velocity_verlet(q0, p0, dt=0.05, n=20):
    def force(q):
        return -q - 0.1 * q ** 3
    q, p = q0.copy(), p0.copy()
    f = force(q)
    traj = []
    for _ in range(n):
        p_half = p + 0.5 * dt * f
        q = q + dt * p_half
        f = force(q)
        p = p_half + 0.5 * dt * f
        traj.append(q[0])
    return np.array(traj)


def verlet_energy_drift(q0):
    p0 = np.zeros_like(q0)
    traj = velocity_verlet(q0, p0)
    return np.sum(traj ** 2)


def finite_volume_upwind(u0, c=0.5, steps=5):
    u = u0.copy()
    for _ in range(steps):
        flux = c * u
        u[1:] = u[1:] - (flux[1:] - flux[:-1])
        u[0] = u[0] - flux[0] + c * u[-1]
    return u


def burgers_godunov(u0, steps=4, dt=0.1):
    u = np.array(u0, dtype=float)
    for _ in range(steps):
        ul, ur = u, np.roll(u, -1)
        f = np.where(ul > ur, np.maximum(0.5 * ul ** 2, 0.5 * ur ** 2), 0.5 * np.minimum(ul ** 2, ur ** 2))
        u = u - dt * (f - np.roll(f, 1))
    return np.sum(u ** 2)


def lax_wendroff(u0, c=0.4):
    u = u0
    for _ in range(6):
        up, um = np.roll(u, -1), np.roll(u, 1)
        u = u - 0.5 * c * (up - um) + 0.5 * c ** 2 * (up - 2 * u + um)
    return u


@dataclass
class Body:
    pos: np.ndarray
    vel: np.ndarray
    mass: float = 1.0

    def kinetic(self):
        return 0.5 * self.mass * np.dot(self.vel, self.vel)


def bodies_energy(v):
    bodies = [Body(np.array([0.0, 1.0]), v[:2]), Body(np.array([1.0, 0.0]), v[2:], 2.0)]
    ke = sum(b.kinetic() for b in bodies)
    d = bodies[0].pos - bodies[1].pos
    return ke - 1.0 / np.linalg.norm(d)


class Spring:
    def __init__(self, k, rest):
        self.k, self.rest = k, rest

    def energy(self, a, b):
        return 0.5 * self.k * (np.linalg.norm(a - b) - self.rest) ** 2


def spring_chain(X):
    pts = X.reshape(-1, 2)
    springs = [Spring(1.0 + i, 1.0) for i in range(len(pts) - 1)]
    return sum(s.energy(pts[i], pts[i + 1]) for i, s in enumerate(springs))


def heat_implicit(u0, r=0.5):
    n = len(u0)
    A = (1 + 2 * r) * np.eye(n) - r * np.eye(n, k=1) - r * np.eye(n, k=-1)
    u = u0
    for _ in range(3):
        u = np.linalg.solve(A, u)
    return u


def crank_nicolson_r(r):
    n = 5
    u = np.sin(np.linspace(0.1, 3.0, n))
    L = -2 * np.eye(n) + np.eye(n, k=1) + np.eye(n, k=-1)
    A = np.eye(n) - 0.5 * r * L
    B = np.eye(n) + 0.5 * r * L
    for _ in range(3):
        u = np.linalg.solve(A, B @ u)
    return float(u @ u)


def shooting_residual(v0):
    y, v = 0.0, v0
    h = 0.05
    for _ in range(20):
        a = -np.sin(y)
        y, v = y + h * v, v + h * a
    return (y - 1.0) ** 2


def cellular_smooth(grid):
    G = grid.reshape(4, 4)
    for _ in range(2):
        P = np.pad(G, 1, mode="edge")
        G = 0.2 * (P[1:-1, 1:-1] + P[:-2, 1:-1] + P[2:, 1:-1] + P[1:-1, :-2] + P[1:-1, 2:])
    return G.ravel()


def pendulum_period(theta0):
    """time to the first zero crossing, linearly interpolated (a while with an exit)."""
    th, om, t, dt = theta0, 0.0, 0.0, 0.01
    while True:
        om_new = om - dt * np.sin(th)
        th_new = th + dt * om_new
        if th_new < 0:
            return t + dt * th / (th - th_new)
        th, om, t = th_new, om_new, t + dt


def orbit_leapfrog(v):
    q = np.array([1.0, 0.0])
    p = np.array([0.0, v])
    dt = 0.05
    for _ in range(30):
        r3 = np.linalg.norm(q) ** 3
        p = p - 0.5 * dt * q / r3
        q = q + dt * p
        r3 = np.linalg.norm(q) ** 3
        p = p - 0.5 * dt * q / r3
    return 0.5 * p @ p - 1 / np.linalg.norm(q)


def sir_model(params):
    beta, gamma = params
    S, I, R = 0.99, 0.01, 0.0
    peak = 0.0
    for _ in range(40):
        dS = -beta * S * I
        dR = gamma * I
        S, I, R = S + dS * 0.5, I - (dS + dR) * 0.5, R + dR * 0.5
        peak = max(peak, I)
    return peak + R


def mass_spring_damper_matrix(k):
    A = np.array([[0.0, 1.0], [-k, -0.3]])
    x = np.array([1.0, 0.0])
    M = np.eye(2) + 0.1 * A
    for _ in range(15):
        x = M @ x
    return x @ x


def reflecting_walls(x0, v=0.7):
    x = x0
    for _ in range(12):
        x = x + 0.1 * v
        if x > 1.0:
            x = 2.0 - x
            v = -v
        elif x < 0.0:
            x = -x
            v = -v
    return x ** 2


def particle_list_update(pos):
    ps = [pos[i:i + 2].copy() for i in range(0, len(pos), 2)]
    vel = [np.zeros(2) for _ in ps]
    for _ in range(5):
        centre = sum(ps) / len(ps)
        for i in range(len(ps)):
            vel[i] = vel[i] + 0.1 * (centre - ps[i])
            ps[i] = ps[i] + 0.1 * vel[i]
    return np.sum(np.array(ps) ** 2)
