"""red40: simulations: n-body energies with a cutoff (masked and looped), explicit heat
steps (slices on copies, np.roll), damped spring-mass systems as dataclasses, SIR and
SEIR models, hand-written Runge-Kutta (a Butcher table), wave and advection equations,
projectile flight to the ground (a while loop with break)."""
from dataclasses import dataclass

import numpy as np

RC = 2.5


def nbody_cutoff_masked(x):
    """shifted Lennard-Jones with a cutoff: pairwise distances by broadcasting, pairs
    beyond RC masked with np.where, the upper triangle by np.triu_indices."""
    P = x.reshape(-1, 2)
    diff = P[:, None, :] - P[None, :, :]
    i, j = np.triu_indices(len(P), k=1)
    r2 = np.sum(diff[i, j] ** 2, axis=-1)
    inv6 = 1.0 / r2 ** 3
    shift = 4 * (RC ** -12 - RC ** -6)
    e = np.where(r2 < RC * RC, 4 * (inv6 ** 2 - inv6) - shift, 0.0)
    return np.sum(e)


def nbody_cutoff_loops(x, eps=1.0, sigma=1.0):
    """the same by double loops with `continue` beyond the cutoff."""
    P = x.reshape(-1, 2)
    n = P.shape[0]
    E = 0.0
    for a in range(n):
        for b in range(a + 1, n):
            d = P[a] - P[b]
            r = np.sqrt(d @ d)
            if r > RC:
                continue
            sr6 = (sigma / r) ** 6
            E += 4 * eps * (sr6 * sr6 - sr6)
    return E


def heat_explicit_profile(u0, alpha=0.2, steps=12):
    """explicit heat steps on a copy: u[1:-1] += alpha * (second difference)."""
    u = u0.copy()
    for _ in range(steps):
        lap = u[2:] - 2 * u[1:-1] + u[:-2]
        u[1:-1] += alpha * lap
    return np.sum(u ** 2) + u[len(u) // 2]


def heat_explicit_alpha(alpha, u0):
    """the diffusivity differentiated; boundaries held at zero by assignment."""
    u = np.array(u0, dtype=float)
    for _ in range(10):
        new = u.copy()
        new[1:-1] = u[1:-1] + alpha * (u[2:] - 2 * u[1:-1] + u[:-2])
        new[0] = new[-1] = 0.0
        u = new
    return np.sum(u * np.linspace(0, 1, len(u)))


def heat_periodic_2d(kappa, U0):
    """a periodic 2D heat equation with np.roll; kappa a float."""
    U = U0
    for _ in range(6):
        lap = (np.roll(U, 1, axis=0) + np.roll(U, -1, axis=0) + np.roll(U, 1, axis=1)
               + np.roll(U, -1, axis=1) - 4 * U)
        U = U + kappa * lap
    return np.sum(U[1, :] ** 2) + np.sum(U[:, 2])


@dataclass
class Oscillator:
    k: float
    c: float
    m: float = 1.0

    def force(self, x, v):
        return -self.k * x - self.c * v

    @property
    def omega(self):
        return np.sqrt(self.k / self.m)


def spring_damped_euler(params, x0=1.0, v0=0.0, dt=0.05, n=60):
    """semi-implicit Euler of a damped oscillator built from params = [k, c]."""
    osc = Oscillator(params[0], params[1])
    x, v = x0, v0
    energy = []
    for _ in range(n):
        v = v + dt * osc.force(x, v) / osc.m
        x = x + dt * v
        energy.append(0.5 * v * v + 0.5 * osc.k * x * x)
    return energy[-1] + 0.01 * osc.omega


def _chain_rhs(y, k, c):
    n = len(y) // 2
    x, v = y[:n], y[n:]
    xp = np.concatenate([[0.0], x, [0.0]])
    a = k * (xp[2:] - 2 * x + xp[:-2]) - c * v
    return np.concatenate([v, a])


def _rk4(rhs, y, h, *args):
    k1 = rhs(y, *args)
    k2 = rhs(y + 0.5 * h * k1, *args)
    k3 = rhs(y + 0.5 * h * k2, *args)
    k4 = rhs(y + h * k3, *args)
    return y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)


def spring_chain_rk4(y0, k=4.0, c=0.3):
    """a damped chain of springs integrated by hand-written RK4 with *args."""
    y = y0
    for _ in range(15):
        y = _rk4(_chain_rhs, y, 0.1, k, c)
    return np.sum(y ** 2)


def _sir(y, beta, gamma):
    S, I, R = y
    N = S + I + R
    return np.array([-beta * S * I / N, beta * S * I / N - gamma * I, gamma * I])


def sir_fit_rk4(params, obs):
    """SIR with log-parameters, RK4 by hand, squared error against observed I."""
    beta, gamma = np.exp(params)
    y = np.array([0.99, 0.01, 0.0])
    out = []
    for _ in range(len(obs)):
        for _ in range(4):
            y = _rk4(_sir, y, 0.25, beta, gamma)
        out.append(y[1])
    return np.sum((np.array(out) - obs) ** 2)


def seir_while(beta, dt=0.1, T=6.0):
    """SEIR by Euler steps in a while loop on time; beta a float."""
    S, E, I, R = 0.99, 0.0, 0.01, 0.0
    sigma, gamma = 0.5, 0.3
    t = 0.0
    peak = 0.0
    while t < T - 1e-9:
        dS = -beta * S * I
        dE = beta * S * I - sigma * E
        dI = sigma * E - gamma * I
        S, E, I, R = S + dt * dS, E + dt * dE, I + dt * dI, R + dt * gamma * I
        peak = peak + I * dt
        t += dt
    return peak + R


BUTCHER = ([],
           [0.5],
           [0.0, 0.5],
           [0.0, 0.0, 1.0])
WEIGHTS = [1 / 6, 1 / 3, 1 / 3, 1 / 6]


def butcher_rk(theta, y0=np.array([1.0, 0.0]), h=0.2, n=10):
    """explicit RK from a Butcher table (lists), stages in a list, a Van der Pol rhs
    with mu = theta[0], a forcing theta[1]."""
    f = lambda y: np.array([y[1], theta[0] * (1 - y[0] ** 2) * y[1] - y[0] + theta[1]])
    y = y0
    for _ in range(n):
        ks = []
        for row in BUTCHER:
            yi = y + h * sum((a * kk for a, kk in zip(row, ks)), np.zeros(2))
            ks.append(f(yi))
        y = y + h * sum(w * kk for w, kk in zip(WEIGHTS, ks))
    return y @ y


def lotka_midpoint(p, y0):
    """Lotka-Volterra by the midpoint method; trajectory kept as a list of arrays."""
    a, b, c, d = p
    rhs = lambda y: np.array([a * y[0] - b * y[0] * y[1], -c * y[1] + d * y[0] * y[1]])
    traj = [y0]
    h = 0.1
    for _ in range(20):
        y = traj[-1]
        traj.append(y + h * rhs(y + 0.5 * h * rhs(y)))
    T = np.array(traj)
    return np.mean(T[:, 0]) + np.var(T[:, 1])


def wave_leapfrog(c, u0):
    """a string by leapfrog: u_new = 2u - u_old + (c dt/dx)^2 lap, fixed ends."""
    u_old = u0.copy()
    u = u0.copy()
    r2 = (c * 0.1 / 0.2) ** 2
    for _ in range(8):
        u_new = np.zeros_like(u)
        u_new[1:-1] = 2 * u[1:-1] - u_old[1:-1] + r2 * (u[2:] - 2 * u[1:-1] + u[:-2])
        u_old, u = u, u_new
    return np.sum(u ** 2)


def advection_diffusion(u0, vel=0.6, D=0.1, dx=0.1, dt=0.05):
    """first-order upwind plus diffusion on a periodic grid with np.roll."""
    u = u0
    for _ in range(10):
        adv = -vel * (u - np.roll(u, 1)) / dx
        dif = D * (np.roll(u, -1) - 2 * u + np.roll(u, 1)) / dx ** 2
        u = u + dt * (adv + dif)
    return np.sum(u ** 3)


def projectile_drag(v0, angle=0.7, k=0.1, dt=0.01):
    """flight with quadratic drag until y < 0 (while True ... break); the landing point
    by linear interpolation of the last step."""
    x, y = 0.0, 0.0
    vx, vy = v0 * np.cos(angle), v0 * np.sin(angle)
    while True:
        speed = np.sqrt(vx * vx + vy * vy)
        xn, yn = x + dt * vx, y + dt * vy
        vx, vy = vx - dt * k * speed * vx, vy - dt * (9.81 + k * speed * vy)
        if yn < 0:
            frac = y / (y - yn)
            return x + frac * (xn - x)
        x, y = xn, yn


def nbody_leapfrog_softened(x0, v0=None, steps=8):
    """three bodies with softened gravity, leapfrog (kick-drift-kick), final energy."""
    P = x0.reshape(3, 2)
    V = np.zeros_like(P) if v0 is None else v0
    m = np.array([1.0, 0.5, 0.8])

    def accel(P):
        d = P[None, :, :] - P[:, None, :]
        r3 = (np.sum(d ** 2, axis=-1) + 0.1) ** 1.5
        return np.sum(m[None, :, None] * d / r3[:, :, None], axis=1)

    dt = 0.05
    a = accel(P)
    for _ in range(steps):
        V = V + 0.5 * dt * a
        P = P + dt * V
        a = accel(P)
        V = V + 0.5 * dt * a
    ke = 0.5 * np.sum(m[:, None] * V ** 2)
    return ke + np.sum(P[0] * P[2])


def langevin_fixed_noise(x0, noise, dt=0.05, temp=0.5):
    """overdamped Langevin in a double well with fixed noise draws."""
    x = x0
    for n in noise:
        x = x - dt * (4 * x ** 3 - 4 * x) + np.sqrt(2 * temp * dt) * n
    return np.sum(x ** 2)
