"""Issue 16, methods named like ndarray methods, on SciPy's frozen distributions
(`stats.norm(...).mean()`): split from receivers.py so that the corpus collects without
SciPy (2026-12-02, session 31 (lead)); modules.py imports this one when SciPy does."""
import numpy as np
from scipy import stats

from .case import case, mixed, refused
from .data_values import both

def _mu_and_x(rng):
    return [float(rng.standard_normal()), rng.standard_normal(3)]


FROZEN = stats.norm(0.3, 1.7)


@both
def frozen_distribution_moments(x):
    return np.sum(x * FROZEN.mean() + x ** 2 * FROZEN.std() + x * FROZEN.var())


def _frozen_and_x(rng):
    return [stats.norm(0.2, 1.3), rng.standard_normal(3)]


@case(mixed(_frozen_and_x), wrt=(1,))
def frozen_distribution_argument(d, x):
    return np.sum(x * d.mean() + x * d.std())


@refused(_mu_and_x, "a frozen distribution's moment of a differentiated parameter")
def frozen_distribution_moment_of_differentiated_parameter(mu, x):
    return stats.norm(mu, 2.0).mean() * np.sum(x)
