"""Session 32 (fix2): checkpointed loops whose steps give other values when run again
(tests/checkpoint/test_nondeterministic.py)."""
import itertools

import numpy as np

from transform import checkpointed

RNG = np.random.default_rng(0)


def _noisy(x):
    return x * (1.0 + 0.5 * RNG.normal(size=x.shape))


def _noisy_twice_removed(x):
    return _noisy(x) + 0.0


def helper_draws(x, n, s):
    for t in checkpointed(range(n), snapshots=s):
        x = np.tanh(_noisy(x))
    return np.sum(x)


def helper_draws_plain(x, n):
    for t in range(n):
        x = np.tanh(_noisy(x))
    return np.sum(x)


def helper_of_helper_draws(x, n, s):
    for t in checkpointed(range(n), snapshots=s):
        x = np.tanh(_noisy_twice_removed(x))
    return np.sum(x)


class Noise:
    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)

    def scale(self, x):
        return x * (1.0 + 0.5 * self.rng.normal(size=np.shape(x)))


NOISE = Noise(0)


def method_draws(x, n, s):
    for t in checkpointed(range(n), snapshots=s):
        x = np.tanh(NOISE.scale(x))
    return np.sum(x)


COUNTER = itertools.count()


def counter_plain(x, n, s):
    for t in checkpointed(range(n), snapshots=s):
        x = np.sin(x) * (1.0 + 0.01 * next(COUNTER))
    return np.sum(x)


def deterministic(x, n, s):
    for t in checkpointed(range(n), snapshots=s):
        x = np.tanh(x * 1.1 + 0.1 * t)
    return np.sum(x)
