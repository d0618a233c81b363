"""np.einsum with optimize=: gradients against central differences, and the contraction
path found once per subscripts and shapes (not on every call)."""
import numpy as np
import pytest

import runtime
from runtime.rules import einsum_paths
from tests.gradcheck import POLICIES, check_grad
from tests.rules.checks import check_float32, check_rule, rand

M23, M34, M42 = rand(2, 3), rand(3, 4, seed=1), rand(4, 2, seed=2)
CASES = [("ij,jk,kl->il", [M23, M34, M42]), ("ij,jk", [M23, M34]),
         ("ij,jk,kl,li->", [M23, M34, M42, rand(2, 2, seed=3)]),
         ("...ij,jk,k->...i", [rand(2, 2, 3, seed=4), M34, rand(4, seed=5)])]


@pytest.mark.parametrize("optimize", [True, "greedy", "optimal", False])
@pytest.mark.parametrize("subscripts, operands", CASES, ids=[s for s, _ in CASES])
def test_einsum_optimize_matches_finite_differences(subscripts, operands, optimize):
    argnums = list(range(1, len(operands) + 1))
    check_rule(np.einsum, [subscripts, *operands], {"optimize": optimize}, argnums=argnums)
    check_float32(np.einsum, [subscripts, *operands], {"optimize": optimize}, argnums=argnums)


def test_explicit_path_passes_through():
    path = np.einsum_path("ij,jk,kl->il", M23, M34, M42, optimize="optimal")[0]
    check_rule(np.einsum, ["ij,jk,kl->il", M23, M34, M42], {"optimize": path},
               argnums=[1, 2, 3])


def test_path_is_found_once_per_subscripts_and_shapes():
    einsum_paths._path.cache_clear()
    rule = runtime.lookup(np.einsum)
    for _ in range(5):
        out, pullback = rule.rrule("ij,jk,kl->il", M23, M34, M42, optimize=True)
        for cot in pullback(np.ones_like(out))[1:]:
            runtime.unthunk(cot)
    # one path for the forward einsum and one per operand's cotangent einsum
    info = einsum_paths._path.cache_info()
    assert info.misses == 4 and info.hits == 16, info
    rule.rrule("ij,jk,kl->il", rand(3, 3), rand(3, 3), rand(3, 3), optimize=True)
    assert einsum_paths._path.cache_info().misses == 5        # new shapes: a new path


def chain_loss(a, b, c):
    return np.sum(np.einsum("ij,jk,kl->il", a, b, c, optimize=True) ** 2)


@pytest.mark.parametrize("policy", POLICIES)
def test_einsum_optimize_in_compiled_code(policy):
    check_grad(chain_loss, [M23, M34, M42], policy=policy)
