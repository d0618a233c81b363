"""Functions of one name defined side by side (tests/emit/test_definition_names.py)."""
import numpy as np

wave, bowl = (lambda x: np.sin(x) * x), (lambda x: np.cos(x) * x * x)
cube = lambda x: x ** 3                                 # noqa: E731
bend = lambda x: np.tanh(x) * x                         # noqa: E731


def both(x):
    return np.sum(wave(x) * bowl(x))


def all_four(x):
    return np.sum(wave(x) + bowl(x) * cube(x) - bend(x))


if np.pi > 3:
    def branch(x):
        return np.sum(np.sin(x) ** 2)
    first_branch = branch

    def branch(x):                                      # noqa: F811
        return np.sum(np.cos(x) * x)
