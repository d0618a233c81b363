"""hvp forward over reverse on constructs the merged session-36 branches got wrong or
refused when the code ran (so route "auto" could not fall back): a list concatenated
after a list carrying no tangent (its zeros were added on the wrong side: a wrong H v),
a user attribute named `shape` of an object a rule call made (taken for an array's
shape: a zero), an object's attribute rewritten in a loop (its cotangents are dicts),
item stores into a list or dict, a backward loop over enumerate(zip(...)) (its
counter's unbounded range was snapshot as a list: a MemoryError), an array reduction method of a helper's value, and a
@property. H v against central differences of grad (tests/fd.py) and against route
reverse_over_forward, each argument in turn."""
import numpy as np
import pytest

from tests.forward.fr_checks import check_forward_over_reverse


class Gamma:
    def __init__(self, shape, rate):
        self.shape = shape
        self.rate = rate

    @property
    def mean(self):
        return self.shape / self.rate


class Cell:
    def __init__(self, w):
        self.w = w
        self.state = 0.0


def stacked_after(x, r):
    return np.sum(np.stack([*[r, r * 0.5], x]) ** 2)


def named_shape(a, b):
    d = Gamma(a, b)
    return np.sum(d.shape * d.rate * a)


def attribute_in_a_loop(w):
    c = Cell(w)
    for k in range(3):
        c.state = c.state + c.w * k + np.cos(c.state)
    return np.sum(c.state * c.w)


def dict_store(x):
    d = {"a": x, "b": x * 2.0}
    a = d.pop("a", np.sin(x))
    return np.sum(a * np.cos(x) * d["b"])


def list_store(x, k):
    xs = [x, x * k]
    ys = xs
    y = ys[0] * ys[1]
    xs[0] = k
    return y + xs[0] * xs[1]


def _relu(z):
    return np.maximum(z, 0.1 * z)


def reduced(x):
    return np.sum(_relu(x).reshape(2, 2).max(axis=0) ** 2)


def with_property(a, b):
    d = Gamma(a, b)
    return np.sum(d.mean ** 2 * a)


def enumerate_zip(q, pos):       # (red34's coulomb_soft: a MemoryError before)
    E = 0.0
    for i, (qi, pi) in enumerate(zip(q, pos)):
        for j in range(i):
            E = E + qi * q[j] / np.sqrt(np.sum((pi - pos[j]) ** 2) + 0.1)
    return E


CASES = [(enumerate_zip, [(3,), (3, 2)]), (stacked_after, [(3,), (3,)]), (named_shape, [(), ()]),
         (attribute_in_a_loop, [(3,)]), (dict_store, [(3,)]),
         (list_store, [(), ()]),
         (reduced, [(4,)]), (with_property, [(), ()])]


@pytest.mark.parametrize("fn, shapes", CASES, ids=[f.__name__ for f, _ in CASES])
def test_against_differences_and_the_other_route(fn, shapes):
    check_forward_over_reverse(fn, shapes, "hvp fr merged", 1.5, 0.5)
