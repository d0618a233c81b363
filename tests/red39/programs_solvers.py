"""red39: hand-written numerical kernels as physics and statistics code has them,
differentiated to second order: Thomas' tridiagonal solve and a hand Cholesky
(buffers written element by element in nested loops), Gauss-Seidel sweeps, adaptive
RK (a step size chosen from the values, a while loop), implicit Euler with an inner
Newton loop, HMC leapfrog, a recursive continued fraction."""
import numpy as np


def thomas_solve(a, b, c, d):
    """the tridiagonal solve with forward elimination and back substitution in place
    on copies."""
    n = len(d)
    cp = np.zeros(n)
    dp = np.zeros(n)
    cp[0] = c[0] / b[0]
    dp[0] = d[0] / b[0]
    for i in range(1, n):
        m = b[i] - a[i] * cp[i - 1]
        cp[i] = c[i] / m if i < n - 1 else 0.0
        dp[i] = (d[i] - a[i] * dp[i - 1]) / m
    x = np.zeros(n)
    x[-1] = dp[-1]
    for i in range(n - 2, -1, -1):
        x[i] = dp[i] - cp[i] * x[i + 1]
    return x


def thomas_loss(diag, rhs):
    n = len(rhs)
    x = thomas_solve(-np.ones(n), diag, -np.ones(n), rhs)
    return np.sum(x ** 2)


def cholesky_by_hand(theta):
    """a hand Cholesky (nested loops writing L[i, j]) of a matrix built from theta;
    the log determinant and a quadratic form."""
    B = theta.reshape(3, 3)
    A = B @ B.T + 3.0 * np.eye(3)
    n = 3
    L = np.zeros((n, n))
    for j in range(n):
        s = A[j, j] - np.sum(L[j, :j] ** 2)
        L[j, j] = np.sqrt(s)
        for i in range(j + 1, n):
            L[i, j] = (A[i, j] - np.sum(L[i, :j] * L[j, :j])) / L[j, j]
    return 2.0 * np.sum(np.log(np.diag(L))) + np.sum(L[:, 0] ** 2)


def gauss_seidel(k, b, sweeps=6):
    """Gauss-Seidel sweeps on a diagonally dominant system whose diagonal is k."""
    n = len(b)
    x = np.zeros(n)
    for _ in range(sweeps):
        for i in range(n):
            off = 0.0
            if i > 0:
                off = off - x[i - 1]
            if i < n - 1:
                off = off - x[i + 1]
            x[i] = (b[i] - off) / k[i]
    return np.sum(x * b)


def adaptive_rk(lam, y0=1.0, T=1.0, tol=1e-4):
    """an adaptive Euler/Heun pair: the step from the error estimate, a while loop on
    the clock; y' = -lam y + sin(t)."""
    t, y, h = 0.0, y0, 0.1
    while t < T:
        h = min(h, T - t)
        k1 = -lam * y + np.sin(t)
        k2 = -lam * (y + h * k1) + np.sin(t + h)
        err = abs(h * (k2 - k1) / 2)
        if err > tol and h > 1e-3:
            h = h / 2
            continue
        y = y + h * (k1 + k2) / 2
        t = t + h
        h = h * 1.5
    return y


def implicit_euler_newton(c, y0=np.array([1.0, 0.0]), dt=0.1, steps=5):
    """implicit Euler for a Van der Pol-like oscillator with a Newton loop per step."""
    y = y0
    traj = []
    for _ in range(steps):
        z = y.copy()
        for _ in range(6):
            F = z - y - dt * np.array([z[1], c * (1 - z[0] ** 2) * z[1] - z[0]])
            J = np.eye(2) - dt * np.array([[0.0, 1.0],
                                           [-2 * c * z[0] * z[1] - 1.0, c * (1 - z[0] ** 2)]])
            z = z - np.linalg.solve(J, F)
        y = z
        traj.append(y)
    return np.sum(np.stack(traj)[:, 0] ** 2)


def hmc_leapfrog(q0, p0, eps=0.1, L=5):
    """leapfrog for a banana-shaped log density; the Hamiltonian at the end as a
    function of the starting point."""
    def grad_U(q):
        return np.array([q[0] + 2 * q[0] * (q[1] - q[0] ** 2) * -2.0 / 2,
                         (q[1] - q[0] ** 2)])

    def U(q):
        return 0.5 * q[0] ** 2 + 0.5 * (q[1] - q[0] ** 2) ** 2

    q, p = q0.copy(), p0.copy()
    p = p - 0.5 * eps * grad_U(q)
    for i in range(L):
        q = q + eps * p
        if i < L - 1:
            p = p - eps * grad_U(q)
    p = p - 0.5 * eps * grad_U(q)
    return U(q) + 0.5 * p @ p


def _cf(x, depth):
    if depth == 0:
        return 1.0
    return 1.0 + x / (depth + _cf(x, depth - 1))


def continued_fraction(x):
    """a recursive continued fraction (a float)."""
    return _cf(x, 5) * np.exp(-x)


def stiffness_loop(E, nodes):
    """a 1D finite element assembly: element stiffnesses E[e]/h, a load vector, fixed
    left end (slice K[1:, 1:]), the compliance."""
    n = len(nodes)
    K = np.zeros((n, n))
    for e in range(n - 1):
        h = nodes[e + 1] - nodes[e]
        ke = E[e] / h * np.array([[1.0, -1.0], [-1.0, 1.0]])
        K[e:e + 2, e:e + 2] += ke
    f = np.ones(n - 1)
    u = np.linalg.solve(K[1:, 1:], f)
    return f @ u


def secant_root(a):
    """the root of x^3 + a x - 1 by the secant method with a while loop."""
    x0, x1 = 0.0, 1.0
    f0 = x0 ** 3 + a * x0 - 1
    f1 = x1 ** 3 + a * x1 - 1
    while abs(f1) > 1e-14:
        x2 = x1 - f1 * (x1 - x0) / (f1 - f0)
        x0, f0 = x1, f1
        x1 = x2
        f1 = x1 ** 3 + a * x1 - 1
    return x1
