"""Behaviour the mutation run (docs/testing.md, session 29 mutA) found unpinned in
runtime/rules/einsum_paths.py: only optimize=True/'greedy'/'optimal' look a path up;
optimize=False (also by default) and an explicit path pass through to np.einsum
untouched, so they never search for a path (a search NumPy would not have made)."""
import numpy as np
import pytest

from runtime.rules import einsum_paths
from tests.rules.checks import rand

OPS = [rand(2, 3, seed=11), rand(3, 4, seed=12), rand(4, 2, seed=13)]
SPEC = "ij,jk,kl->il"


def _misses_after(call):
    einsum_paths._path.cache_clear()
    out = call()
    return out, einsum_paths._path.cache_info().misses


@pytest.mark.parametrize("kwargs", [{}, {"optimize": False}], ids=["default", "False"])
def test_no_optimize_never_searches_a_path(kwargs):
    out, misses = _misses_after(lambda: einsum_paths.cached_einsum(SPEC, *OPS, **kwargs))
    assert misses == 0
    assert np.array_equal(out, np.einsum(SPEC, *OPS, optimize=False))


def test_an_explicit_path_is_followed_not_replaced():
    path = ["einsum_path", (1, 2), (0, 1)]
    out, misses = _misses_after(lambda: einsum_paths.cached_einsum(SPEC, *OPS, optimize=path))
    assert misses == 0
    assert np.array_equal(out, np.einsum(SPEC, *OPS, optimize=path))


@pytest.mark.parametrize("optimize", [True, "greedy", "optimal"])
def test_optimize_modes_search_once(optimize):
    out, misses = _misses_after(lambda: einsum_paths.cached_einsum(SPEC, *OPS, optimize=optimize))
    assert misses == 1
    assert np.allclose(out, np.einsum(SPEC, *OPS))
