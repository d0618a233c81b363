"""Session 36 (noticed): programs once refused or crashing, each now run through grad,
jvp or hvp and checked against central differences (test_noticed36.py)."""
from dataclasses import dataclass

import numpy as np


def _neg_piece(v, wrt=1.0, policy=2.0):
    return np.sin(v) * wrt * policy


def _pos_piece(v, wrt=1.0, policy=2.0):
    return v ** 2 * wrt + policy


def piecewise_keywords_named_like_vjp(x):
    """np.piecewise's keywords reach the pieces: `wrt` and `policy` are theirs, not the
    runtime's (runtime/callees.py's value_vjp takes its own positionally)."""
    return np.sum(np.piecewise(x, [x < 0], [_neg_piece, _pos_piece], wrt=3.0, policy=0.5))


class _Squash:
    def __call__(self, h):
        return np.tanh(self.transform(h))

    def energy(self, h, scale):
        return scale * np.sum(self(h) ** 2)


@dataclass
class _Linear(_Squash):
    W: np.ndarray

    def transform(self, h):
        return self.W @ h


@dataclass
class _Doubled(_Linear):
    def __call__(self, h):
        return super().__call__(h) * 2.0

    def energy(self, h, scale):
        return super(_Doubled, self).energy(h * 0.5, scale) + np.sum(self.W * h)


H = np.array([0.3, -0.2, 0.5])


def super_call_of_differentiated_object(m):
    """super() in methods of an object whose weights are differentiated: a `super` proxy
    carries no derivative, the rewrite (frontend/super_calls.py) passes the object."""
    return np.sum(m(H) * m.W[0]) + m.energy(np.cos(H), 1.5)


def super_call_on_argument(h):
    return np.sum(_Doubled(W3)(h) * h) + _Doubled(W3).energy(h, 0.5)


class _Stored(_Linear):
    def __call__(self, h):
        call = super().__call__
        return call(h) * 2.0


def super_method_read_as_value(m):
    return np.sum(_Stored(m)(H))


W3 = np.array([[0.5, -0.3, 0.2], [0.1, 0.4, -0.6], [-0.2, 0.3, 0.7]])
