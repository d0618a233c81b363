"""red41: statistical physics, climate and optics as people write them: Ising and Potts
mean-field free energies (self-consistent while loops), an XY lattice by np.roll, a
zero-dimensional energy-balance model, ray-transfer matrices, a Fabry-Perot etalon,
an implicit heat step with scipy's solve_banded, radiative transfer, Debye-Hueckel."""
import math
from dataclasses import dataclass

import numpy as np
from scipy.linalg import solve_banded
from scipy.special import softmax, logsumexp


def ising_mean_field(J, h=0.1, beta=1.0, z=4, tol=1e-12):
    """m = tanh(beta (z J m + h)) by damped fixed-point iteration; the free energy per
    spin at the fixed point."""
    m = 0.5
    for it in range(500):
        m_new = np.tanh(beta * (z * J * m + h))
        if abs(m_new - m) < tol:
            m = m_new
            break
        m = 0.5 * m + 0.5 * m_new
    return -0.5 * z * J * m * m - h * m + (
        (1 + m) / 2 * np.log((1 + m) / 2) + (1 - m) / 2 * np.log((1 - m) / 2)) / beta


def ising_inhomogeneous(h, J=0.3, beta=1.2, sweeps=40):
    """a ring of spins with local fields, Gauss-Seidel mean-field updates in place on a
    local array, the magnetisation energy."""
    n = len(h)
    m = np.zeros(n)
    for _ in range(sweeps):
        for i in range(n):
            m[i] = np.tanh(beta * (J * (m[i - 1] + m[(i + 1) % n]) + h[i]))
    return -np.sum(h * m) - J * np.sum(m * np.roll(m, 1))


def potts_mean_field(fields, J=0.5, beta=1.0, q=3):
    """Potts model on a chain: each site's marginal a softmax of its field plus J times
    the neighbours' marginals; 30 synchronous sweeps; the mean-field free energy."""
    H = fields.reshape(-1, q)
    n = len(H)
    P = np.full((n, q), 1.0 / q)
    for _ in range(30):
        nb = np.zeros((n, q))
        nb[1:] += P[:-1]
        nb[:-1] += P[1:]
        P = softmax(beta * (H + J * nb), axis=1)
    energy = -np.sum(P * H) - J * np.sum(P[1:] * P[:-1])
    entropy = -np.sum(P * np.log(P))
    return energy - entropy / beta


def xy_lattice_energy(theta, J=1.0, h=0.2):
    """XY model angles on a periodic 2D lattice by np.roll; a field along x."""
    L = theta.reshape(4, 4)
    e = -J * np.sum(np.cos(L - np.roll(L, 1, axis=0)) + np.cos(L - np.roll(L, 1, axis=1)))
    return e - h * np.sum(np.cos(L))


@dataclass
class Climate:
    S0: float = 1361.0
    sigma: float = 5.67e-8
    C: float = 8.0       # heat capacity, W yr m^-2 K^-1
    eps: float = 0.61


def energy_balance(albedo_params, years=40, dt=0.25):
    """zero-dimensional EBM with an ice-albedo feedback by tanh, Euler in time;
    the mean temperature anomaly over the last decade."""
    a_ice, a_free = albedo_params
    c = Climate()
    T = 288.0
    temps = []
    for step in range(int(years / dt)):
        alpha = a_free + (a_ice - a_free) * 0.5 * (1 - np.tanh((T - 265.0) / 10.0))
        dT = (c.S0 / 4 * (1 - alpha) - c.eps * c.sigma * T ** 4) / c.C
        T = T + dt * dT
        temps.append(T)
    return np.mean(temps[-40:]) - 288.0


def lens_system_focus(curv, n_glass=1.5, d=0.2):
    """a thick lens by ray-transfer matrices: refraction, translation, refraction; the
    back focal length's inverse and a marginal ray's height at a screen."""
    R1, R2 = 1 / curv[0], 1 / curv[1]
    ref = lambda n1, n2, R: np.array([[1.0, 0.0], [(n1 - n2) / (R * n2), n1 / n2]])
    tr = lambda t: np.array([[1.0, t], [0.0, 1.0]])
    M = ref(n_glass, 1.0, R2) @ tr(d) @ ref(1.0, n_glass, R1)
    power = -M[1, 0]
    ray = tr(2.0) @ M @ np.array([0.1, 0.0])
    return power + ray[0] ** 2


def fabry_perot(phase_scale, wavelengths, R=0.8):
    """transmission of an etalon T = 1 / (1 + F sin^2(delta/2)); the mean over a band."""
    F = 4 * R / (1 - R) ** 2
    delta = 2 * np.pi * phase_scale / wavelengths
    T = 1.0 / (1.0 + F * np.sin(delta / 2) ** 2)
    return T.mean()


def implicit_heat_banded(kappa, u0, steps=5, dt=0.1):
    """backward Euler with a tridiagonal system in scipy's banded storage."""
    n = len(u0)
    h = 1.0 / (n + 1)
    r = kappa * dt / h ** 2
    ab = np.zeros((3, n))
    ab[0, 1:] = -r
    ab[1, :] = 1 + 2 * r
    ab[2, :-1] = -r
    u = u0
    for _ in range(steps):
        u = solve_banded((1, 1), ab, u)
    return np.sum(u ** 2) * h


def implicit_heat_dense(kappa, u0, steps=5, dt=0.1):
    """the same step by np.linalg.solve on a dense matrix built with np.diag."""
    n = len(u0)
    h = 1.0 / (n + 1)
    r = kappa * dt / h ** 2
    A = np.diag(np.full(n, 1 + 2 * r)) - r * (np.eye(n, k=1) + np.eye(n, k=-1))
    u = u0.copy()
    for _ in range(steps):
        u = np.linalg.solve(A, u)
    return np.sum(u ** 2) * h


def two_stream_radiative(tau, omega=0.8, g=0.5, mu0=0.6):
    """Eddington-style layer reflectance from optical depth tau (closed form)."""
    gam1 = (7 - omega * (4 + 3 * g)) / 4
    gam2 = -(1 - omega * (4 - 3 * g)) / 4
    k = np.sqrt(gam1 ** 2 - gam2 ** 2)
    num = gam2 * (1 - np.exp(-2 * k * tau))
    den = (k + gam1) + (k - gam1) * np.exp(-2 * k * tau)
    return num / den + 0.1 * np.exp(-tau / mu0)


def debye_huckel_energy(q, pos, kappa=1.5):
    """screened Coulomb energy of charges q at 1D positions, a double loop over pairs."""
    E = 0.0
    n = len(q)
    for i in range(n):
        for j in range(i + 1, n):
            r = abs(pos[i] - pos[j])
            E += q[i] * q[j] * math.exp(-kappa * r) / r
    return E


def partition_function_levels(beta, levels=np.array([0.0, 0.5, 1.3, 2.0]), g=(1, 3, 5, 7)):
    """degenerate levels: free energy -log Z / beta, Z by logsumexp with weights."""
    logZ = logsumexp(-beta * levels, b=np.array(g, dtype=float))
    return -logZ / beta


def heat_capacity_two_level(T, eps=1.0):
    """Schottky anomaly C(T) of a two-level system, written via cosh."""
    x = eps / T
    return x ** 2 / (4 * np.cosh(x / 2) ** 2)


def brownian_harmonic_fixed_noise(k, noise, dt=0.05, gamma=1.0):
    """overdamped Langevin in a harmonic well with fixed noise; mean x**2."""
    x = 1.0
    xs = np.empty(len(noise))
    for i, xi in enumerate(noise):
        x = x - dt * k * x / gamma + np.sqrt(2 * dt / gamma) * xi
        xs[i] = x
    return np.mean(xs ** 2)
