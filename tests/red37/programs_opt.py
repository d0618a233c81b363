"""red37: Newton and trust-region steps, physics energies to forces, implicit layers
(fixed points, implicit-function solves), with habits: tuples from helpers, views,
print, while loops with data-dependent exits, early returns, *args/**kwargs."""
import numpy as np


def _value_and_slope(f, df, x):
    return f(x), df(x)


def newton_cubic_root(a):
    f = lambda x: x ** 3 + a * x - 1.0  # noqa: E731
    df = lambda x: 3 * x ** 2 + a  # noqa: E731
    x = 1.0
    while True:
        fx, dfx = _value_and_slope(f, df, x)
        if abs(fx) < 1e-12:
            return x
        x = x - fx / dfx


def newton_system(theta):
    """a 2x2 Newton solve for the stationary point of a smooth convex function; the
    result's derivative through the iterates."""
    x = np.zeros(2)
    for it in range(6):
        g = np.array([np.exp(x[0]) - theta[0] + x[1], x[0] + 2 * x[1] - theta[1]])
        H = np.array([[np.exp(x[0]), 1.0], [1.0, 2.0]])
        x = x - np.linalg.solve(H, g)
    return np.sum(x ** 2)


def trust_region_dogleg(x0):
    def f(x):
        return (1 - x[0]) ** 2 + 5 * (x[1] - x[0] ** 2) ** 2

    def grad_hess(x):
        g = np.array([-2 * (1 - x[0]) - 20 * x[0] * (x[1] - x[0] ** 2),
                      10 * (x[1] - x[0] ** 2)])
        H = np.array([[2 - 20 * x[1] + 60 * x[0] ** 2, -20 * x[0]], [-20 * x[0], 10.0]])
        return g, H
    x, radius = x0, 0.5
    for _ in range(3):
        g, H = grad_hess(x)
        p = -np.linalg.solve(H + 2.0 * np.eye(2), g)
        norm = np.sqrt(p @ p)
        if norm > radius:
            p = p * (radius / norm)
        if f(x + p) < f(x):
            x = x + p
            radius = radius * 2
        else:
            radius = radius / 4
    return f(x)


def line_search_returns_tuple(w, X, y):
    def loss(v):
        r = X @ v - y
        return 0.5 * r @ r, X.T @ r

    f, g = loss(w)
    t = 1.0
    while loss(w - t * g)[0] > f - 0.25 * t * (g @ g):
        t = 0.5 * t
    return loss(w - t * g)[0]


def implicit_fixed_point(x):
    """z = tanh(W z + x) solved by iteration to a tolerance (a DEQ layer)."""
    W = np.array([[0.2, -0.1, 0.05], [0.1, 0.3, -0.2], [0.0, 0.1, 0.25]])
    z = np.zeros_like(x)
    k = 0
    while k < 100:
        z_new = np.tanh(W @ z + x)
        if np.max(np.abs(z_new - z)) < 1e-13:
            break
        z = z_new
        k += 1
    return np.sum(z_new ** 2)


def implicit_solve_layer(x):
    """an implicit layer by the implicit-function theorem written by hand: the solve's
    derivative through np.linalg.solve."""
    A = np.array([[3.0, 0.5, 0.0], [0.5, 2.0, 0.3], [0.0, 0.3, 1.5]])
    M = A + np.diag(x ** 2)
    z = np.linalg.solve(M, np.ones(3))
    return z @ x


def forces_from_energy(x):
    """forces as minus the gradient written by hand, returned as a vector (its Jacobian
    is minus the Hessian of the energy)."""
    pos = x.reshape(-1, 2)
    F = np.zeros_like(pos)
    for i in range(len(pos)):
        for j in range(len(pos)):
            if i != j:
                d = pos[i] - pos[j]
                r2 = d @ d + 0.5
                F[i] = F[i] + 2 * d / r2 ** 2
    return F.ravel()


def morse_chain(x, D=1.0, a=1.5, r0=1.0):
    e = 0.0
    for i in range(len(x) - 1):
        r = x[i + 1] - x[i]
        e += D * (1 - np.exp(-a * (r - r0))) ** 2
    return e


def morse_chain_kwargs(x):
    return morse_chain(x, a=1.2) + morse_chain(x[::-1], D=0.5)


def spring_energy_views(x):
    pos = x.reshape(-1, 2)
    left, right = pos[:-1], pos[1:]
    d = right - left
    r = np.sqrt(np.sum(d * d, axis=1))
    return np.sum((r - 1.0) ** 2) + 0.1 * np.sum(pos[:, 1])


def gravity_energy_print(x):
    pos = x.reshape(-1, 3)
    e = 0.0
    for i in range(len(pos)):
        for j in range(i):
            r = np.sqrt(np.sum((pos[i] - pos[j]) ** 2) + 0.01)
            e = e - 1.0 / r
        if i == len(pos) - 1:
            print("energy", float(e))
    return e + 0.5 * np.sum(pos ** 2)


def dihedral_energy(x):
    p = x.reshape(4, 3)
    b1, b2, b3 = p[1] - p[0], p[2] - p[1], p[3] - p[2]
    n1, n2 = np.cross(b1, b2), np.cross(b2, b3)
    c = n1 @ n2 / (np.linalg.norm(n1) * np.linalg.norm(n2))
    return 1.0 + np.cos(3 * np.arccos(np.clip(c, -1.0, 1.0)))


def early_return_energy(x):
    r2 = np.sum(x * x)
    if r2 > 100.0:
        return 0.0
    if r2 < 1e-12:
        return 1.0
    return np.exp(-r2) * np.cos(x[0])


def star_args_energy(*coords):
    total = 0.0
    for c in coords:
        total = total + np.sum(c ** 2) * 0.5
    return total + coords[0] @ coords[1]


def star_args_caller(x, y):
    return star_args_energy(x, y, x * y)


def kwargs_splat(x):
    opts = {"k": 2.0, "x0": 0.5}

    def energy(x, k=1.0, x0=0.0):
        return 0.5 * k * np.sum((x - x0) ** 2)
    return energy(x, **opts) + energy(x)


def gauss_newton(theta, t, y):
    def residual(p):
        return p[0] * np.exp(-p[1] * t) - y

    def jac(p):
        e = np.exp(-p[1] * t)
        return np.stack([e, -p[0] * t * e], axis=1)
    p = theta
    for _ in range(3):
        r, J = residual(p), jac(p)
        p = p - np.linalg.solve(J.T @ J + 0.1 * np.eye(2), J.T @ r)
    return np.sum(residual(p) ** 2)


def lbfgs_history_lists(w):
    def g(v):
        return np.array([4 * v[0] ** 3 + v[1], v[0] + 2 * v[1]])
    s_list, y_list = [], []
    x = w
    gx = g(x)
    for k in range(3):
        d = -gx
        for s, yv in zip(reversed(s_list), reversed(y_list)):
            d = d - (s @ d) / (yv @ s) * yv
        x_new = x + 0.1 * d
        g_new = g(x_new)
        s_list.append(x_new - x)
        y_list.append(g_new - gx)
        x, gx = x_new, g_new
    return np.sum(x ** 2)


def bisection_while(c):
    lo, hi = 0.0, 2.0
    f = lambda x: np.exp(x) - c * x - 1.5  # noqa: E731
    while hi - lo > 1e-10:
        mid = (lo + hi) / 2
        if f(mid) > 0:
            hi = mid
        else:
            lo = mid
    x = (lo + hi) / 2
    for _ in range(3):                  # Newton polish: the root's derivatives in c
        x = x - f(x) / (np.exp(x) - c)
    return x * x + c


def pendulum_energy_sensitivity(theta0):
    th, om = theta0, 0.0
    h = 0.05
    for _ in range(20):
        om = om - h * np.sin(th)
        th = th + h * om
    return 0.5 * om ** 2 + (1 - np.cos(th))


def mass_matrix_energy(q):
    m1, m2, l1, l2 = 1.0, 0.5, 1.0, 0.8
    M = np.array([[(m1 + m2) * l1 ** 2, m2 * l1 * l2 * np.cos(q[0] - q[1])],
                  [m2 * l1 * l2 * np.cos(q[0] - q[1]), m2 * l2 ** 2]])
    qd = np.array([0.3, -0.2])
    return 0.5 * qd @ M @ qd - (m1 + m2) * l1 * np.cos(q[0]) - m2 * l2 * np.cos(q[1])


def augmented_lagrangian(x):
    lam, mu = 0.0, 10.0
    c = lambda v: v[0] + v[1] - 1.0  # noqa: E731
    f = lambda v: v[0] ** 2 + 2 * v[1] ** 2 + v[0] * v[1]  # noqa: E731
    return f(x) + lam * c(x) + 0.5 * mu * c(x) ** 2


def barrier_min(x):
    t = 1.0
    val = 0.0
    for _ in range(3):
        val = t * np.sum(x ** 2) - np.sum(np.log(1.0 - x ** 2))
        t *= 2
    return val


def cg_solve_loop(x):
    A = np.array([[4.0, 1.0, 0.0], [1.0, 3.0, 0.5], [0.0, 0.5, 2.0]]) + np.outer(x, x)
    b = np.array([1.0, 2.0, 0.5])
    z = np.zeros(3)
    r = b - A @ z
    p = r.copy()
    for _ in range(3):
        Ap = A @ p
        alpha = (r @ r) / (p @ Ap)
        z = z + alpha * p
        r_new = r - alpha * Ap
        beta = (r_new @ r_new) / (r @ r)
        p = r_new + beta * p
        r = r_new
    return z @ b
