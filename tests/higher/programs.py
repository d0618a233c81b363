"""Realistic programs differentiating through derivatives: a gradient-norm penalty
(double backprop, WGAN-GP), forces from an energy and their sensitivities, a Laplace
approximation's log-det Hessian, Newton steps in 1-D. Module-level derivative
functions, as a user would write them."""
import numpy as np

from transform import grad, value_and_grad


def loss(w, X, y):
    """Logistic regression's mean log-loss with an L2 term."""
    z = X @ w
    return np.mean(np.logaddexp(0.0, z) - y * z) + 0.05 * np.sum(w ** 2)


loss_grad = grad(loss)


def penalised(w, X, y, lam):
    """loss + lam * |grad loss|^2 (double backprop)."""
    g = loss_grad(w, X, y)
    return loss(w, X, y) + lam * np.sum(g ** 2)


def energy(pos, eps):
    """A soft pair potential over particle positions (n x 2), strength eps."""
    total = 0.0
    n = pos.shape[0]
    for i in range(n):
        for j in range(i + 1, n):
            d = pos[i] - pos[j]
            r2 = np.sum(d * d) + 0.1
            total = total + eps / r2 + 0.01 * r2
    return total


energy_grad = grad(energy)


def force_mismatch(pos, eps, target):
    """Squared distance of the forces -dE/dpos from target forces (force matching)."""
    forces = -energy_grad(pos, eps)
    return np.sum((forces - target) ** 2)


def neg_log_post(w, lam):
    """A 1-D posterior's negative log density, prior precision lam."""
    return np.log(1.0 + np.exp(-2.0 * w)) + 0.5 * lam * w * w + 0.3 * w ** 4


curvature = grad(grad(neg_log_post))


def laplace_log_det(w, lam):
    """The Laplace approximation's 0.5 log det Hessian term at w (1-D)."""
    return 0.5 * np.log(curvature(w, lam))


def directional_curvature(w, lam, v):
    """<grad f(w), v> for a vector model; grad of it is the Hessian's row H v."""
    return np.sum(vector_grad(w, lam) * v)


def vector_nlp(w, lam):
    return np.sum(np.log(1.0 + np.exp(-w * np.array([1.0, 2.0, -1.0])))) + \
        0.5 * lam * np.sum(w * w) + 0.1 * np.sum(w ** 4) + 0.2 * w[0] * w[1]


vector_grad = grad(vector_nlp)
hessian_row = grad(directional_curvature)


def log_det_hessian(w, lam):
    """log det of the Hessian, its rows made by grad of a function calling grad."""
    rows = []
    for k in range(3):
        rows.append(hessian_row(w, lam, np.eye(3)[k]))
    H = np.stack(rows)
    return np.linalg.slogdet(H)[1]


def newton_potential(x):
    return x ** 4 / 4.0 - np.cos(x) + 0.5 * x


newton_first = grad(newton_potential)
newton_second = grad(grad(newton_potential))


def newton_step(x):
    return x - newton_first(x) / newton_second(x)


def value_and_slope(x, a):
    """value_and_grad inside differentiated code: both outputs used."""
    v, s = value_and_grad(newton_potential)(x * a)
    return v * s + a * s
