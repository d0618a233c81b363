"""Slice reads' cotangents written into a fresh buffer's still-zero regions
(transform/reverse/slice_adds.py): after `accumulate_at(None, ...)` allocates an
adjoint's zeros, a later slice read whose positions no earlier write touched assigns its
cotangent (`du[1:-1] = g`: 0 + g is g) instead of adding it; an overlapping one adds.
Behaviour, not text: a counting ndarray subclass records the ufuncs the specialised rule
runs (an assignment runs none), and every program runs against finite differences
under every policy.
"""
import numpy as np
import pytest

from tests.gradcheck import POLICIES, check_function, rng
from tests.optimize.test_negations import Counted
from transform.api import _wrt_names, compiled, signature_of
from transform.reverse.slice_adds import disjoint, index_region


def tiles(u):
    """Two overlapping reads, then three tiling u (the backward sweep meets them first)."""
    return np.sum(np.cos(u[:-2] * u[2:])) + np.sum(u[1:-1] ** 2) + \
        np.sum(np.sin(u[:1]) + u[-1:] * 2.0)


def heat_steps(u, k, steps):
    for _ in range(steps):
        lap = u[2:] - 2 * u[1:-1] + u[:-2]
        u = np.concatenate([u[:1], u[1:-1] + k * lap, u[-1:]])
    return np.sum(u ** 3)


def strided(A):
    """Rows and columns, steps and negative bounds of a matrix: disjoint and not."""
    return np.sum(A[0] ** 2) + np.sum(np.tanh(A[1:, ::2])) + np.sum(A[1:, 1::2] * 3.0) + \
        np.sum(np.sin(A[-1, :]))


def twice_the_same(u):
    return np.sum(u[1:3] ** 2) + np.sum(u[1:3] * 2.0)


def whole_use_between(u, k):
    """A read of the whole array between two slice reads: its `du += ...` adds everywhere,
    so the earlier read's region is no longer zero (session 31, red31: `du[3:] = g` dropped
    the whole use's part there)."""
    return np.sum(u[3:] ** 2) + np.sum(u * u) * k + np.sum(np.sin(u[:1]))


def copy_between_steps(u, k):
    """A stencil's copy (`du += dw`) after the first step's slice reads, then more."""
    acc = np.sum(u[1:-1:2] ** 2) + np.sum(u[5:] ** 2)
    w = u.copy()
    w[:1] = u[:1] * 2.0
    for _ in range(2):
        if k > 0:
            w = np.tanh(w)
    return acc + np.sum(w ** 2)


def whole_use_in_loop(u, k):
    s = 0.0
    for _ in range(2):
        s = s + np.sum(u[:2] * k) + np.sum(np.cos(u)) + np.sum(u[-3:] ** 2)
    return s


CASES = [
    (whole_use_between, lambda r: [r.normal(size=7), 0.7], (0, 1)),
    (copy_between_steps, lambda r: [r.normal(size=7), 0.7], (0, 1)),
    (whole_use_in_loop, lambda r: [r.normal(size=7), 0.7], (0, 1)),
    (tiles, lambda r: [r.normal(size=7)], (0,)),
    (heat_steps, lambda r: [r.normal(size=8), 0.3, 3], (0, 1)),
    (strided, lambda r: [r.normal(size=(4, 5))], (0,)),
    (twice_the_same, lambda r: [r.normal(size=5)], (0,)),
]


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn,make,wrt", CASES, ids=lambda c: getattr(c, "__name__", ""))
def test_gradients_match_finite_differences(fn, make, wrt, policy):
    check_function(fn, make(rng("fresh_regions", fn.__name__)), wrt, policy)


def backward_adds(fn, args, wrt):
    """How many `add` ufuncs the specialised rule's backward sweep runs on Counted args."""
    names, _ = _wrt_names(fn, wrt)
    rule = compiled(fn, names, "loop", signature=signature_of(args))
    out, pullback = rule.rrule(*[a.view(Counted) if isinstance(a, np.ndarray) else a
                                 for a in args])
    Counted.calls = []
    pullback(1.0)
    return Counted.calls.count("add")


def test_reads_tiling_a_fresh_buffer_assign_and_overlaps_add():
    # u[:1], u[-1:] and u[1:-1] tile u: the first allocates, the next two assign; u[:-2]
    # and u[2:] overlap them and add (plus the sum's own spread, none)
    assert backward_adds(tiles, (np.linspace(0.1, 0.9, 7),), "u") == 2


def test_the_same_region_twice_adds():
    assert backward_adds(twice_the_same, (np.linspace(0.1, 0.9, 5),), "u") == 1


@pytest.mark.parametrize("a,b,apart", [
    ((slice(None, 1),), (slice(1, -1),), True),
    ((slice(-1, None),), (slice(1, -1),), True),
    ((slice(None, -2),), (slice(1, -1),), False),
    ((slice(0, None, 2),), (slice(1, None, 2),), True),
    ((slice(0, None, 2),), (slice(2, 3),), False),
    ((0,), (slice(1, None),), True),
    ((-1,), (slice(None, None, -1),), False),
    ((1, slice(None)), (slice(None), 0), False),
    ((1, slice(None)), (2,), True),
    ((slice(3, 3),), (slice(None),), True),
])
def test_regions_of_literal_indices(a, b, apart):
    shape = (5, 4)
    ra, rb = index_region(a, shape), index_region(b, shape)
    grid = np.zeros(shape, int)
    grid[a] += 1
    grid[b] += 1
    assert (grid.max() < 2) == apart == disjoint(ra, rb)


def test_indices_without_a_region():
    assert index_region((None, slice(None)), (3,)) is None      # a new axis
    assert index_region(5, (3,)) is None                         # out of range
    assert index_region((0, 0, 0), (3, 3)) is None              # too many axes
