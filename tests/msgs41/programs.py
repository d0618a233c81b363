"""Programs whose refusals named the wrong place or misled (session 40, msgs41:
tests/msgs41/test_messages.py)."""
import numpy as np
from scipy import stats

from tests.red41.programs_eng import _dh  # red41's Denavit-Hartenberg transform


class Poly:
    def __init__(self, c):
        self.c = c

    def __getitem__(self, i):
        return self.c[i] * 2.0


def own_getitem(x):
    p = Poly(x)
    return p[1] * p[0]


def own_getitem_method(x):
    p = Poly(x)
    return p.__getitem__(1) * p.__getitem__(0)


def mean_where(x):
    mask = x > 0
    return np.mean(x * x, where=mask)


def min_where(x):
    return np.min(x * x, where=x > 0, initial=10.0)


def poisson_cdf(x):
    return np.sum(stats.poisson.cdf(3.0, np.exp(x)))


def poisson_cdf_value(x):
    cdf = stats.poisson.cdf
    return np.sum(cdf(3.0, np.exp(x)))


def divide_at(x):
    y = np.ones(3) + x
    np.divide.at(y, np.array([0, 1]), x[:2])
    return np.sum(y * y)


def divide_at_passed(x, op=np.divide.at):
    y = np.ones(3) + x
    op(y, np.array([0, 1]), x[:2])
    return np.sum(y * y)


def dh_chain_zip(q):
    table = [(0.3, 0.0, np.pi / 2), (0.0, 0.5, 0.0), (0.0, 0.4, 0.0)]
    T = np.eye(4)
    for theta, (d, a, alpha) in zip(q, table):
        T = T @ _dh(theta, d, a, alpha)
    return T[0, 3] * T[1, 3] + T[0, 0]


def dh_chain_range(q):
    table = [(0.3, 0.0, np.pi / 2), (0.0, 0.5, 0.0), (0.0, 0.4, 0.0)]
    T = np.eye(4)
    for k in range(len(table)):
        d, a, alpha = table[k]
        T = T @ _dh(q[k], d, a, alpha)
    return T[0, 3] * T[1, 3] + T[0, 0]


def lowest_mode(s):
    """grad^3 through eigvalsh: its tangent's own tangent calls a helper (red41's
    beam_deflection_modes, smaller)."""
    K = s * np.array([[2.0, -1.0, 0.0], [-1.0, 2.0, -1.0], [0.0, -1.0, 2.0]]) + np.eye(3)
    return np.sqrt(np.linalg.eigvalsh(K)[0])
