"""red41: engineering and geometry as people write them: 1D finite elements assembled
in loops and by np.add.at, a 2D truss, robot-arm forward kinematics and an inverse
kinematics loss, quaternions, Rodrigues rotations, pinhole reprojection, Bezier curves,
Gauss-Legendre quadrature, an LQR cost by Riccati iteration, neo-Hookean energy."""
from dataclasses import dataclass, field

import numpy as np
from scipy.linalg import solve


def fem_bar_loop(log_E, f_tip=1.0, L=1.0):
    """axially loaded bar, n linear elements with stiffness E_e A / h assembled in a loop,
    fixed at the left end; the compliance f.u."""
    E = np.exp(log_E)
    n = len(E)
    h = L / n
    K = np.zeros((n + 1, n + 1))
    for e in range(n):
        k = E[e] / h * np.array([[1.0, -1.0], [-1.0, 1.0]])
        K[e:e + 2, e:e + 2] += k
    f = np.zeros(n + 1)
    f[-1] = f_tip
    u = np.zeros(n + 1)
    u[1:] = np.linalg.solve(K[1:, 1:], f[1:])
    return f @ u


def fem_bar_add_at(log_E, load):
    """the same bar assembled with np.add.at over element connectivity (scatter-add),
    a distributed load, scipy.linalg.solve."""
    E = np.exp(log_E)
    n = len(E)
    h = 1.0 / n
    conn = np.stack([np.arange(n), np.arange(1, n + 1)], axis=1)
    K = np.zeros((n + 1, n + 1))
    ke = np.array([[1.0, -1.0], [-1.0, 1.0]]) / h
    for e, (i, j) in enumerate(conn):
        np.add.at(K, (np.array([i, i, j, j]), np.array([i, j, i, j])), E[e] * ke.ravel())
    f = np.zeros(n + 1)
    np.add.at(f, conn[:, 0], 0.5 * h * load)
    np.add.at(f, conn[:, 1], 0.5 * h * load)
    u = solve(K[1:, 1:], f[1:])
    return 0.5 * u @ K[1:, 1:] @ u - f[1:] @ u


def fem_poisson_source(q, kappa=1.0):
    """-kappa u'' = q on (0, 1), u(0) = u(1) = 0, element-wise constant source; the
    squared L2 norm of the nodal solution by the trapezoid rule."""
    n = len(q)
    h = 1.0 / n
    K = np.zeros((n + 1, n + 1))
    F = np.zeros(n + 1)
    for e in range(n):
        idx = [e, e + 1]
        K[np.ix_(idx, idx)] += kappa / h * np.array([[1, -1], [-1, 1]])
        F[idx] += q[e] * h / 2
    inner = slice(1, n)
    u = np.zeros(n + 1)
    u[inner] = np.linalg.solve(K[inner, inner], F[inner])
    return np.trapezoid(u ** 2, dx=h)


def truss_compliance(areas, nodes, bars, free, load):
    """2D pin-jointed truss: bar stiffness E A / L (c, s) outer products assembled by
    index, the compliance of the free degrees of freedom."""
    ndof = 2 * len(nodes)
    K = np.zeros((ndof, ndof))
    for b, (i, j) in enumerate(bars):
        d = nodes[j] - nodes[i]
        L = np.linalg.norm(d)
        c, s = d / L
        t = np.array([c, s, -c, -s])
        dofs = [2 * i, 2 * i + 1, 2 * j, 2 * j + 1]
        K[np.ix_(dofs, dofs)] += areas[b] / L * np.outer(t, t)
    Kf = K[np.ix_(free, free)]
    u = np.linalg.solve(Kf, load)
    return load @ u


def arm_forward_kinematics(q, lengths=(1.0, 0.8, 0.5)):
    """planar 3-link arm: cumulative angles, end effector position."""
    angles = np.cumsum(q)
    x = sum(l * np.cos(a) for l, a in zip(lengths, angles))
    y = sum(l * np.sin(a) for l, a in zip(lengths, angles))
    return np.array([x, y])


def arm_ik_loss(q, target):
    """distance of the end effector to a target plus a small joint regulariser."""
    p = arm_forward_kinematics(q)
    return np.sum((p - target) ** 2) + 1e-2 * np.sum(q ** 2)


def _dh(theta, d, a, alpha):
    ct, st, ca, sa = np.cos(theta), np.sin(theta), np.cos(alpha), np.sin(alpha)
    return np.array([[ct, -st * ca, st * sa, a * ct],
                     [st, ct * ca, -ct * sa, a * st],
                     [0.0, sa, ca, d],
                     [0.0, 0.0, 0.0, 1.0]])


def dh_chain(q):
    """Denavit-Hartenberg chain of 4x4 transforms; the tool position's squared norm."""
    table = [(0.3, 0.0, np.pi / 2), (0.0, 0.5, 0.0), (0.0, 0.4, 0.0)]
    T = np.eye(4)
    for theta, (d, a, alpha) in zip(q, table):
        T = T @ _dh(theta, d, a, alpha)
    p = T[:3, 3]
    return p @ p + T[0, 0]


def quat_mul(p, q):
    w1, x1, y1, z1 = p
    w2, x2, y2, z2 = q
    return np.array([w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2,
                     w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2,
                     w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2,
                     w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2])


def quaternion_rotate_loss(q, pts, target):
    """normalise a quaternion, rotate points by q v q*, squared error to targets."""
    q = q / np.linalg.norm(q)
    conj = q * np.array([1.0, -1, -1, -1])
    err = 0.0
    for p, t in zip(pts, target):
        v = quat_mul(quat_mul(q, np.concatenate([[0.0], p])), conj)[1:]
        err += np.sum((v - t) ** 2)
    return err


def rodrigues(omega):
    theta = np.sqrt(omega @ omega)
    k = omega / theta
    Kx = np.array([[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]])
    return np.eye(3) + np.sin(theta) * Kx + (1 - np.cos(theta)) * Kx @ Kx


def reprojection_error(params, X, uv, f=500.0):
    """pinhole camera: Rodrigues rotation and translation from a flat vector,
    projection u = f x/z, v = f y/z, squared pixel error."""
    R = rodrigues(params[:3])
    t = params[3:6]
    Xc = X @ R.T + t
    proj = f * Xc[:, :2] / Xc[:, 2:3]
    return np.sum((proj - uv) ** 2) / len(X)


def bezier_length(ctrl, n=24):
    """cubic Bezier curve by Bernstein polynomials, arc length by summing segment norms."""
    P = ctrl.reshape(4, 2)
    t = np.linspace(0, 1, n)[:, None]
    B = [(1 - t) ** 3, 3 * t * (1 - t) ** 2, 3 * t ** 2 * (1 - t), t ** 3]
    curve = sum(b * p for b, p in zip(B, P))
    seg = np.diff(curve, axis=0)
    return np.sum(np.sqrt(np.sum(seg ** 2, axis=1)))


def gauss_legendre_integral(theta, deg=8):
    """int_0^2 exp(-a x) sin(b x) dx by Gauss-Legendre nodes mapped from [-1, 1]."""
    a, b = theta
    x, w = np.polynomial.legendre.leggauss(deg)
    xm = 1.0 + x
    return np.sum(w * np.exp(-a * xm) * np.sin(b * xm))


def lqr_riccati_cost(log_q, A, B, x0, r=0.1):
    """discrete Riccati iteration until convergence, the cost x0' P x0."""
    Q = np.diag(np.exp(log_q))
    R = np.array([[r]])
    P = Q.copy()
    for it in range(300):
        BtP = B.T @ P
        K = np.linalg.solve(R + BtP @ B, BtP @ A)
        P_new = Q + A.T @ P @ (A - B @ K)
        if np.max(np.abs(P_new - P)) < 1e-11:
            P = P_new
            break
        P = P_new
    return x0 @ P @ x0


@dataclass
class NeoHookean:
    mu: float = 1.0
    lam: float = 2.0

    def energy(self, F):
        J = np.linalg.det(F)
        C = F.T @ F
        I1 = np.trace(C)
        return 0.5 * self.mu * (I1 - 3) - self.mu * np.log(J) + 0.5 * self.lam * np.log(J) ** 2


def neo_hookean_strain(u, lam=2.0):
    """strain energy of a homogeneous deformation F = I + grad u (flat 3x3)."""
    F = np.eye(3) + u.reshape(3, 3)
    return NeoHookean(lam=lam).energy(F)


def beam_deflection_modes(EI, L=1.0, n=6):
    """Euler-Bernoulli beam on an elastic foundation, finite differences for the fourth
    derivative, the lowest natural frequency from np.linalg.eigvalsh."""
    h = L / (n + 1)
    D = (np.diag(np.full(n, 6.0)) + np.diag(np.full(n - 1, -4.0), 1) + np.diag(np.full(n - 1, -4.0), -1)
         + np.diag(np.full(n - 2, 1.0), 2) + np.diag(np.full(n - 2, 1.0), -2))
    D[0, 0] = D[-1, -1] = 5.0
    K = EI * D / h ** 4 + 50.0 * np.eye(n)
    return np.sqrt(np.linalg.eigvalsh(K)[0])


def hazen_williams_network(log_d, q=np.array([0.05, 0.03, 0.02])):
    """head loss along three pipes in series and a parallel pair (flows fixed), the
    total loss by the Hazen-Williams formula with a power 1.852."""
    d = np.exp(log_d)
    L = np.array([100.0, 80.0, 60.0, 60.0])
    C = 120.0
    hl = lambda qi, Li, di: 10.67 * Li * qi ** 1.852 / (C ** 1.852 * di ** 4.87)
    series = sum(hl(q[i], L[i], d[i]) for i in range(2))
    par = 1.0 / (1.0 / hl(q[2], L[2], d[2]) + 1.0 / hl(q[2], L[3], d[3]))
    return series + par


@dataclass
class Spring:
    k: float
    rest: float
    ends: tuple = field(default=(0, 1))


def spring_network_energy(x, springs=None):
    """2D nodes (flat) connected by springs held in dataclasses."""
    if springs is None:
        springs = [Spring(1.0, 1.0, (0, 1)), Spring(2.0, 0.8, (1, 2)), Spring(0.5, 1.2, (0, 2)),
                   Spring(1.5, 1.0, (2, 3)), Spring(1.0, 1.4, (1, 3))]
    P = x.reshape(-1, 2)
    E = 0.0
    for s in springs:
        i, j = s.ends
        r = np.linalg.norm(P[i] - P[j])
        E += 0.5 * s.k * (r - s.rest) ** 2
    return E
