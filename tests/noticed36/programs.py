"""Session 36 (noticed): programs once refused or crashing, each now run through grad,
jvp or hvp and checked against central differences (test_noticed36.py)."""
import numpy as np


def _neg_piece(v, wrt=1.0, policy=2.0):
    return np.sin(v) * wrt * policy


def _pos_piece(v, wrt=1.0, policy=2.0):
    return v ** 2 * wrt + policy


def piecewise_keywords_named_like_vjp(x):
    """np.piecewise's keywords reach the pieces: `wrt` and `policy` are theirs, not the
    runtime's (runtime/callees.py's value_vjp takes its own positionally)."""
    return np.sum(np.piecewise(x, [x < 0], [_neg_piece, _pos_piece], wrt=3.0, policy=0.5))
