"""A tuple display unpacked into names is not built (transform/lowering/normalize.py
`unpacked_display`): `h, c = cell(...)` whose inlined helper returns `(h_new, c_new)`, or
`a, b = x, y`, binds each target to the display's atom. Where an atom is one of the
targets (`a, b = b, a`, a helper returning a parameter passed as a target) a copy of the
old value is made first, as the tuple would hold it. Every program runs against finite differences under
every policy; the generated source is checked for the tuple it no longer builds.
"""
import re

import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_function, rng
from transform import adjoint_source


def cell(x, h, c, W):
    z = np.tanh(W @ x + h)
    c = z * c + np.sin(z)
    return z * np.tanh(c), c


def cell_loop(x, W, steps):
    h = c = np.zeros(W.shape[0])
    for _ in range(steps):
        h, c = cell(x, h, c, W)
    return np.sum(h ** 2) + np.sum(c)


def passes_h_back(h, c):
    return np.tanh(c) * h, h            # returns its parameter: the caller's h, unchanged


def helper_returns_a_target(h, c, steps):
    for _ in range(steps):
        h, c = passes_h_back(h, c)      # c takes the OLD h: through a copy
    return np.sum(h * c)


def swap_in_loop(a, b, steps):
    for _ in range(steps):
        a, b = b * 0.9, a               # b's atom is the old a: through a copy
        a, b = b, a
    return np.sum(a * np.array([1.0, 2.0, 3.0])) + np.sum(np.sin(b))


def rotate(a, b, c):
    a, b, c = b, c, a
    return np.sum(a * 1.0) + np.sum(b * 2.0) + np.sum(c * 3.0)


def fresh_values(x):
    s, t = np.sin(x), x * 2.0           # not built: two fresh atoms
    u, v = t, 0.5                       # a constant atom
    return np.sum(s * u) + v * np.sum(t)


def rebinds_an_atom_later(x, steps):
    y = x
    for _ in range(steps):
        p, q = y, x * 1.5               # p is y's array, not a later y
        y = p * q
    return np.sum(y)


CASES = [
    (cell_loop, lambda r: [r.normal(size=3), 0.5 * r.normal(size=(3, 3)), 3], (0, 1)),
    (helper_returns_a_target, lambda r: [r.normal(size=4), r.normal(size=4), 3], (0, 1)),
    (swap_in_loop, lambda r: [r.normal(size=3), r.normal(size=3), 3], (0, 1)),
    (rotate, lambda r: [r.normal(size=2), r.normal(size=2), r.normal(size=2)], (0, 1, 2)),
    (fresh_values, lambda r: [r.normal(size=3)], (0,)),
    (rebinds_an_atom_later, lambda r: [r.normal(size=3), 2], (0,)),
]
IDS = [c[0].__name__ for c in CASES]


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn,make,wrt", CASES, ids=IDS)
def test_gradients_match_finite_differences(fn, make, wrt, policy):
    check_function(fn, make(rng("unpacked_displays", fn.__name__)), wrt, policy)


BUILT = re.compile(r"= \(|\w\[[01]\]\n")     # `t = (...)`, `h = t[0]`


@pytest.mark.parametrize("fn", [cell_loop, helper_returns_a_target, swap_in_loop, rotate,
                                fresh_values, rebinds_an_atom_later], ids=lambda f: f.__name__)
def test_no_tuple_is_built_to_be_unpacked(fn):
    forward = adjoint_source(fn, wrt=0).split("def pullback")[0]
    assert not BUILT.search(forward), forward
    assert "getitem_vjp" not in adjoint_source(fn, wrt=0)


def test_a_target_s_old_value_is_copied_first():
    forward = adjoint_source(swap_in_loop, wrt=(0, 1)).split("def pullback")[0]
    copy = re.search(r"\n +(t\d+) = a\n", forward)
    assert copy and f"b = {copy.group(1)}" in forward, forward
